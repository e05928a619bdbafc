import type { Messages } from '#app/i18n/index.ts'

type Tone = 'info' | 'ok'

/**
 * Every notice a redirect can carry, by name. `param` is its value in
 * ?notice=, kept as first published (tests, bookmarks and mail clients' link
 * previews name them); two pages may share a value, each page accepts only its
 * own names (<RedirectNotice>). `text` picks its message from the catalogue.
 * Nothing from the URL is ever shown (decision 0032): a notice whose sentence
 * names something (`{email}`) has a `ref`, the kind of row its redirect's `id`
 * parameter names, and the page's loader looks that row up in its own tenant
 * (noticeValues in notices.server.ts) for the values.
 */
export const NOTICES = {
	// Learning: the course home and its entries
	completePreviousInModule: {
		param: 'complete_previous_in_module',
		tone: 'info',
		text: (m) => m.common.notices.completePreviousInModule,
	},
	completePreviousInCourse: {
		param: 'complete_previous_in_course',
		tone: 'info',
		text: (m) => m.common.notices.completePreviousInCourse,
	},
	enrollFirst: { param: 'enroll_first', tone: 'info', text: (m) => m.common.notices.enrollFirst },
	enrolled: { param: 'enrolled', tone: 'info', text: (m) => m.common.notices.enrolled },
	courseCompleted: { param: 'course_completed', tone: 'info', text: (m) => m.common.notices.courseCompleted },
	entryCompleted: { param: 'entry_completed', tone: 'ok', text: (m) => m.common.notices.entryCompleted },
	handedIn: { param: 'handed_in', tone: 'ok', text: (m) => m.common.notices.handedIn },
	// Accounts
	signedOut: { param: 'signed-out', tone: 'ok', text: (m) => m.accounts.signIn.signedOut },
	passwordReset: { param: 'password-reset', tone: 'ok', text: (m) => m.accounts.signIn.passwordReset },
	checkEmail: { param: 'check-email', tone: 'ok', text: (m) => m.accounts.signUp.checkEmail },
	resetLinkSent: { param: 'sent', tone: 'ok', text: (m) => m.accounts.forgot.sent },
	magicLinkSent: { param: 'sent', tone: 'ok', text: (m) => m.accounts.magic.sent },
	emailChangeSent: { param: 'email-sent', tone: 'ok', text: (m) => m.accounts.account.emailSent },
	emailChanged: { param: 'email-changed', tone: 'ok', text: (m) => m.accounts.account.emailChanged },
	localeChanged: { param: 'locale-changed', tone: 'ok', text: (m) => m.accounts.account.localeChanged },
	passwordChanged: { param: 'password-changed', tone: 'ok', text: (m) => m.accounts.account.passwordChanged },
	nameSaved: { param: 'name-saved', tone: 'ok', text: (m) => m.accounts.account.nameSaved },
	remindersSaved: { param: 'reminders-saved', tone: 'ok', text: (m) => m.accounts.account.remindersSaved },
	announcementSent: { param: 'announcement-sent', tone: 'ok', text: (m) => m.adminCourses.announce.sent },
	archiveLimited: { param: 'archive-limited', tone: 'info', text: (m) => m.accounts.account.archiveLimited },
	archiveImpersonating: {
		param: 'archive-impersonating',
		tone: 'info',
		text: (m) => m.accounts.account.archiveImpersonating,
	},
	timeZoneSaved: { param: 'time-zone-saved', tone: 'ok', text: (m) => m.accounts.dueSettings.timeZoneSaved },
	calendarReplaced: { param: 'calendar-link', tone: 'ok', text: (m) => m.accounts.dueSettings.calendarReplaced },
	verificationResent: { param: 'verification-sent', tone: 'ok', text: (m) => m.accounts.account.verificationResent },
	emailConfirmed: { param: 'email-confirmed', tone: 'ok', text: (m) => m.accounts.verify.confirmed },
	// Administration
	roleChanged: { param: 'role-changed', tone: 'ok', text: (m) => m.admin.user.notices.roleChanged },
	personArchiveLimited: {
		param: 'person-archive-limited',
		tone: 'info',
		text: (m) => m.admin.user.notices.personArchiveLimited,
	},
	userDeactivated: { param: 'deactivated', tone: 'ok', text: (m) => m.admin.user.notices.deactivated },
	userReactivated: { param: 'reactivated', tone: 'ok', text: (m) => m.admin.user.notices.reactivated },
	userErased: { param: 'erased', tone: 'ok', text: (m) => m.admin.user.erasure.done },
	userSignedOut: { param: 'signed-out', tone: 'ok', text: (m) => m.admin.user.notices.signedOut },
	verificationSent: { param: 'verification-sent', tone: 'ok', text: (m) => m.admin.user.notices.verificationSent },
	resetSent: { param: 'reset-sent', tone: 'ok', text: (m) => m.admin.user.notices.resetSent },
	enrollmentCancelled: {
		param: 'enrollment-cancelled',
		tone: 'ok',
		text: (m) => m.admin.user.notices.enrollmentCancelled,
	},
	enrollmentReactivated: {
		param: 'enrollment-reactivated',
		tone: 'ok',
		text: (m) => m.admin.user.notices.enrollmentReactivated,
	},
	invitationSent: { param: 'invitation-sent', tone: 'ok', text: (m) => m.admin.invite.sent, ref: 'invitation' },
	invitationSentToMember: {
		param: 'invitation-sent-to-member',
		tone: 'ok',
		text: (m) => m.admin.invite.sentToMember,
		ref: 'invitation',
	},
	invitationRefreshed: {
		param: 'invitation-refreshed',
		tone: 'ok',
		text: (m) => m.admin.invite.refreshed,
		ref: 'invitation',
	},
	invitationResent: {
		param: 'invitation-resent',
		tone: 'ok',
		text: (m) => m.admin.invitations.resent,
		ref: 'invitation',
	},
	invitationRevoked: {
		param: 'invitation-revoked',
		tone: 'ok',
		text: (m) => m.admin.invitations.revoked,
		ref: 'revokedInvitation',
	},
	tenantCreated: { param: 'created', tone: 'ok', text: (m) => m.admin.tenants.notices.created },
	tenantActive: { param: 'active', tone: 'ok', text: (m) => m.admin.tenants.notices.active },
	tenantSuspended: { param: 'suspended', tone: 'ok', text: (m) => m.admin.tenants.notices.suspended },
	tenantArchived: { param: 'archived', tone: 'ok', text: (m) => m.admin.tenants.notices.archived },
	tenantSettingsSaved: { param: 'settings-saved', tone: 'ok', text: (m) => m.adminSettings.settings.saved },
	scimTokenRevoked: { param: 'token-revoked', tone: 'ok', text: (m) => m.adminSettings.scim.notices.revoked },
	scimMappingAdded: { param: 'mapping-added', tone: 'ok', text: (m) => m.adminSettings.scim.notices.mapped },
	scimMappingRemoved: { param: 'mapping-removed', tone: 'ok', text: (m) => m.adminSettings.scim.notices.unmapped },
	webhookUpdated: { param: 'webhook-updated', tone: 'ok', text: (m) => m.adminSettings.webhooks.notices.updated },
	webhookReplayed: { param: 'webhook-replayed', tone: 'ok', text: (m) => m.adminSettings.webhooks.notices.replayed },
	apiKeyRevoked: { param: 'api-key-revoked', tone: 'ok', text: (m) => m.adminSettings.apiKeys.revoked },
	ssoProviderSaved: { param: 'provider-saved', tone: 'ok', text: (m) => m.adminSettings.signIn.saved },
	ssoProviderRemoved: { param: 'provider-removed', tone: 'ok', text: (m) => m.adminSettings.signIn.removed },
	tenantDomainLive: { param: 'domain-live', tone: 'ok', text: (m) => m.admin.tenants.notices.domainLive },
	tenantDomainNotLive: { param: 'domain-not-live', tone: 'ok', text: (m) => m.admin.tenants.notices.domainNotLive },
	courseAdminAssigned: { param: 'assigned', tone: 'ok', text: (m) => m.adminCourses.admins.assigned },
	courseAdminRevoked: { param: 'revoked', tone: 'ok', text: (m) => m.adminCourses.admins.revoked },
	dueExtended: { param: 'due-extended', tone: 'ok', text: (m) => m.adminCourses.dueDates.extended },
	courseSettingsSaved: { param: 'saved', tone: 'ok', text: (m) => m.adminCourses.settings.saved },
	// Grading (the course's submissions queue)
	submissionGraded: { param: 'graded', tone: 'ok', text: (m) => m.grading.grade.graded },
	submissionReturned: { param: 'returned', tone: 'ok', text: (m) => m.grading.grade.returned },
	gradingWatchSaved: { param: 'watch-saved', tone: 'ok', text: (m) => m.grading.queue.watchSaved },
	// Second chances (a course's learner page, decision 0037)
	attemptsGranted: { param: 'attempts-granted', tone: 'ok', text: (m) => m.adminCourses.learner.granted },
	assignmentReopened: { param: 'reopened', tone: 'ok', text: (m) => m.adminCourses.learner.reopened },
	// Certificates (a course's certificates page)
	certificateRevoked: { param: 'revoked', tone: 'ok', text: (m) => m.certificates.admin.revoked },
	certificateReissued: { param: 'reissued', tone: 'ok', text: (m) => m.certificates.admin.reissued },
} as const satisfies Record<string, { param: string; tone: Tone; text: (m: Messages) => string; ref?: NoticeRef }>

/** What a notice's `id` names: a pending or accepted invitation, or one revoked (its audit row). */
export type NoticeRef = 'invitation' | 'revokedInvitation'

export type NoticeName = keyof typeof NOTICES

/** The notices whose sentence names a row: their redirect carries its id. */
type RefNotice = { [N in NoticeName]: (typeof NOTICES)[N] extends { ref: NoticeRef } ? N : never }[NoticeName]

/** The query parameter that carries a notice's id. */
export const NOTICE_ID_PARAM = 'id'

/** What the course home and its entries say after a redirect. */
export const LEARNING_NOTICES = [
	'completePreviousInModule',
	'completePreviousInCourse',
	'enrollFirst',
	'enrolled',
	'courseCompleted',
	'entryCompleted',
	'handedIn',
] as const satisfies NoticeName[]

/**
 * A path of this site that shows the notice: the redirect target of an action (`localePath` it as
 * any other). A notice that names a row takes that row's id, and nothing else.
 */
export function withNotice<N extends NoticeName>(path: string, name: N, ...id: N extends RefNotice ? [string] : []) {
	const query = new URLSearchParams({ notice: NOTICES[name].param })
	if (id[0] !== undefined) query.set(NOTICE_ID_PARAM, id[0])
	return `${path}${path.includes('?') ? '&' : '?'}${query}`
}

/** Which of the page's notices the URL carries; null for none, or one the page does not show. */
export function readNotice<N extends NoticeName>(params: URLSearchParams, accepted: readonly N[]): N | null {
	const param = params.get('notice')
	return accepted.find((name) => NOTICES[name].param === param) ?? null
}

import type { RequestContext } from '#app/context.ts'
import type { Locale } from '#db/schema/values.ts'
import { proveMailboxSteps, signInWithConsumedSteps } from './auth.server.ts'
import { assignCourseAdminSteps, enrollSteps } from '#db/learning.ts'
import { auditSteps, type AuditInput } from '#db/audit.ts'
import {
	acceptInvitationRowSteps,
	addInvitationCoursesSteps,
	coursesOfInvitations,
	inviteeDetails,
	deletePendingInvitationSteps,
	findInvitation,
	findPendingInvitationSteps,
	invitationCoursesSteps,
	rotateInvitationTokenSteps,
	upsertInvitationsSteps,
	withdrawPendingInvitationsSteps,
	type Invitation,
} from '#db/invitations.ts'
import { inTransaction, rollback, type Tx } from '#db/transaction.ts'
import { createUserSteps, findUserByEmail, findUserByEmailSteps, updateUserSteps } from '#db/users.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { INVITATION_EMAILS } from './invitation-emails.ts'
import { jobSite, type JobSite } from '../platform/jobs.server.ts'
import { type AccountJobPayloads, accountJobs } from './jobs.server.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { recipientMailContext, siteName } from '../content/site.server.ts'
import { hashToken, INVITATION_TTL_MS, newRawToken } from './tokens.server.ts'
import { parseToken } from '../platform/canonical.server.ts'
import { readCatalogue } from '../content/cms.server.ts'
import { isPaid, isPublished, type CourseSummary } from '../content/content.ts'
import { seatRefusalSteps } from '#db/seats.ts'

// The invitation lists and names the pages show, as the repository reads them.
export { coursesOfInvitations, findInvitationById, inviteeDetails, listPendingInvitations } from '#db/invitations.ts'

export type InvitationCheck =
	{ ok: true; invitation: Invitation } | { ok: false; reason: 'invalid' | 'expired' | 'used' }

export interface InvitationInput {
	tenantId: string
	email: string
	role: 'student' | 'course_admin' | 'tenant_admin'
	courseSlug?: string | null
	name?: string | null
	/** The language a list gave (decision 0065). */
	locale?: Locale | null
	invitedBy: string | null
}

/**
 * Offers each address its one open invitation in this tenant (decision 0040), in the caller's
 * transaction: a new one, or the open one refreshed (`refreshed`; a new token and expiry, and,
 * unless `keepOffer`, the new role, course and inviter), with the courses it enrolls in on
 * acceptance (added by the inviter) and the job that mails its link (the link it had stops working).
 * A few statements for any number of them (a list's chunk, decision 0059): the addresses must differ.
 */
export function* offerInvitationsSteps(
	tx: Tx,
	site: JobSite,
	offers: Array<{ input: InvitationInput; courses?: string[] }>,
	keepOffer = false,
) {
	// The link's token is issued when the mail goes (mailInvitation): this one is never known to anyone.
	const expiresAt = new Date(Date.now() + INVITATION_TTL_MS)
	const written = yield* upsertInvitationsSteps(
		tx,
		offers.map(({ input }) => ({ ...input, tokenHash: hashToken(newRawToken()), expiresAt })),
		keepOffer,
	)
	yield* addInvitationCoursesSteps(
		tx,
		written.flatMap(({ row }, k) =>
			(offers[k].courses ?? []).map((courseSlug) => ({
				invitation: row,
				courseSlug,
				grantedBy: offers[k].input.invitedBy,
			})),
		),
	)
	yield* accountJobs.enqueueManySteps(
		tx,
		'mail.invitation',
		written.map(({ row }) => ({ ...site, tenantId: row.tenant_id, invitationId: row.id })),
	)
	return written.map(({ row, refreshed }) => ({ invitation: row, refreshed }))
}

/** One address's invitation: offerInvitationsSteps for one. */
export function* offerInvitationSteps(
	tx: Tx,
	site: JobSite,
	input: InvitationInput,
	options: { courses?: string[]; keepOffer?: boolean } = {},
) {
	const [offer] = yield* offerInvitationsSteps(tx, site, [{ input, courses: options.courses }], options.keepOffer)
	return offer
}

/**
 * The invitation's mail (a job): a new token and a new expiry in one statement, so any link mailed
 * before stops working, then the link, in the invitee's locale when they already have an account
 * here, else in the language the admin's list gave (decision 0065), else in the inviter's; it greets
 * them by their account's name, or by the name the list gave. Nothing when it is no longer pending
 * (accepted, expired, revoked).
 */
export async function mailInvitation(ctx: MailContext, job: AccountJobPayloads['mail.invitation']) {
	const raw = newRawToken()
	const invitation = await inTransaction(ctx.db, (tx) =>
		rotateInvitationTokenSteps(tx, job.tenantId, job.invitationId, {
			tokenHash: hashToken(raw),
			expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
		}),
	)
	if (!invitation) return 'the invitation is no longer pending'
	const existing = await findUserByEmail(ctx.db, invitation.tenant_id, invitation.email)
	const given = await inviteeDetails(ctx.db, invitation.tenant_id, invitation.id)
	const locale = existing?.locale ?? given.locale ?? job.locale
	// An account whose address nobody proved may be someone else's: its name is not the invitee's.
	const name = existing?.email_verified_at ? existing.name : given.name
	// On the invitee's host (the canonical one, for someone without an account), not the inviter's.
	const to = await recipientMailContext(ctx, existing?.id ?? null)
	// The page opens in the language the email is written in.
	const url = absoluteUrl(to, localePath(locale, `/invite/${raw}`))
	// The courses it enrolls in on acceptance, by their titles in the mail's language (decision 0040).
	const slugs = (await coursesOfInvitations(ctx.db, invitation.tenant_id, [invitation.id])).get(invitation.id) ?? []
	const titles = await Promise.all(
		slugs.map(async (slug) => {
			try {
				return (await ctx.cms.course(ctx.site, slug, locale))?.title ?? slug
			} catch {
				return slug
			}
		}),
	)
	await deliver(
		to,
		composeEmail(INVITATION_EMAILS, {
			kind: titles.length ? 'invitation_courses' : 'invitation',
			to: invitation.email,
			locale,
			site: await siteName(to, locale),
			url,
			role: invitation.role,
			greet: name,
			values: { courses: titles.join(', ') },
		}),
	)
}

/** When an invitation was (last) sent: its expiry less the lifetime every send gives it (the table keeps no send time). */
export function invitationSentAt(invitation: Pick<Invitation, 'expires_at'>) {
	return new Date(invitation.expires_at.getTime() - INVITATION_TTL_MS)
}

/**
 * Sends a pending invitation again: its audit row and the job that mails it, together; the job
 * gives it a new link (the one mailed before stops working) and a new expiry. Null when it is no
 * longer pending or not this tenant's.
 */
export async function resendInvitation(
	ctx: RequestContext,
	tenantId: string,
	id: string,
	audit: (invitation: Invitation) => AuditInput,
) {
	return inTransaction(ctx.db, function* (tx) {
		const row = yield* findPendingInvitationSteps(tx, tenantId, id)
		if (!row) return null
		yield* auditSteps(tx, audit(row))
		yield* accountJobs.enqueueSteps(tx, 'mail.invitation', { ...jobSite(ctx), tenantId, invitationId: row.id })
		return row
	})
}

/** Revokes a pending invitation (deletes it: its link answers as unknown) with its audit row, together. */
export function revokeInvitation(
	ctx: RequestContext,
	tenantId: string,
	id: string,
	audit: (invitation: Invitation) => AuditInput,
) {
	return inTransaction(ctx.db, function* (tx) {
		const row = yield* deletePendingInvitationSteps(tx, tenantId, id)
		if (row) yield* auditSteps(tx, audit(row))
		return row
	})
}

/**
 * The courses a course-admin invitation may name: this site's published courses (the invitation
 * form's rule, checked again when the invitation is accepted).
 */
export async function invitableCourses(ctx: RequestContext) {
	return (await readCatalogue(ctx)).filter(isPublished)
}

/**
 * The pending invitation of this link on this host, or why not. Also `invalid` when what it grants
 * can no longer be granted (decision 0032): its inviter is gone, deactivated or no longer an admin
 * who may invite (findInvitation), or its course is not one an invitation may name.
 */
export async function checkInvitation(ctx: RequestContext, raw: string, now = new Date()): Promise<InvitationCheck> {
	const token = parseToken(raw)
	if (!ctx.tenant || !token) return { ok: false, reason: 'invalid' }
	const invitation = await findInvitation(ctx.db, ctx.tenant.id, hashToken(token.raw))
	if (!invitation) return { ok: false, reason: 'invalid' }
	if (invitation.accepted_at) return { ok: false, reason: 'used' }
	if (invitation.expires_at <= now) return { ok: false, reason: 'expired' }
	const slug = invitation.course_slug
	if (slug !== null && !(await invitableCourses(ctx)).some((c) => c.slug === slug))
		return { ok: false, reason: 'invalid' }
	if (invitation.role === 'course_admin' && slug === null) return { ok: false, reason: 'invalid' }
	return { ok: true, invitation }
}

/**
 * Accepts the invitation once, grants its role and signs the invitee in, in one transaction (never
 * an invitation used up without its account, nor an account without its session): to the existing
 * user of that address in this tenant, or to a new user with the given name and password hash
 * (also given for an existing account whose address was never proven, whose name and password it
 * replaces). A course_admin invitation also creates the course assignment. The acceptance re-checks
 * its inviter's authority in the same statement (acceptInvitationRowSteps); call checkInvitation
 * first for the course. Null when it is no longer pending or cannot be accepted; `full` (the course's
 * title) when a paid course it enrolls in has no free seat: then nothing is stored (decision 0065).
 */
export async function acceptInvitation(
	ctx: RequestContext,
	raw: string,
	newUser: { name: string; passwordHash: string } | null,
) {
	const tenant = ctx.tenant!
	const token = parseToken(raw)
	if (!token) return null
	// The courses an invitation may still enroll in: published ones of this site (a paid one is a seat).
	const open = new Map((await invitableCourses(ctx)).map((c) => [c.slug, c]))
	const accepted = await inTransaction(ctx.db, function* (tx) {
		const invitation = yield* acceptInvitationRowSteps(tx, tenant.id, hashToken(token.raw))
		if (!invitation) return null
		let user = yield* findUserByEmailSteps(tx, tenant.id, invitation.email)
		if (user && !user.email_verified_at) {
			// An address nobody had proven: whoever signed up with it may not be the invitee, so the
			// invitee's own name and password replace theirs and their sessions end.
			user = newUser
				? yield* updateUserSteps(
						tx,
						user.id,
						{ name: newUser.name, password_hash: newUser.passwordHash, email_verified_at: new Date() },
						{ bumpTokenVersion: true },
					)
				: yield* proveMailboxSteps(tx, user, 'other')
		}
		if (user) {
			// An invitation never demotes: a tenant_admin invited as student stays tenant_admin.
			const rank = { student: 0, course_admin: 1, tenant_admin: 2, super_admin: 3 } as const
			if (rank[invitation.role as keyof typeof rank] > rank[user.role as keyof typeof rank]) {
				user = yield* updateUserSteps(tx, user.id, { role: invitation.role }, { bumpTokenVersion: true })
			}
		} else {
			if (!newUser) rollback(null)
			user =
				(yield* createUserSteps(tx, {
					tenant_id: tenant.id,
					email: invitation.email,
					name: newUser.name,
					role: invitation.role as 'student',
					password_hash: newUser.passwordHash,
					email_verified_at: new Date(),
					locale: ctx.locale,
				})) ?? null
		}
		if (!user) rollback(null)
		if (invitation.role === 'course_admin' && invitation.course_slug) {
			yield* assignCourseAdminSteps(
				tx,
				{ tenantId: tenant.id, userId: user.id },
				invitation.course_slug,
				invitation.invited_by,
			)
		}
		yield* enrollCarriedSteps(tx, invitation, { tenantId: tenant.id, userId: user.id }, open)
		// A deactivated account accepts nothing: the whole acceptance is undone.
		const session = yield* signInWithConsumedSteps(tx, ctx, user.id, invitation.id)
		return session ? { user, invitation, session } : rollback(null)
	})
	// A full course's rollback({ full }) is what inTransaction returned then.
	return accepted as typeof accepted | { full: string }
}

/**
 * The enrollments an accepted invitation carries (decision 0040), each only while the admin who
 * added it may still enroll in that course and the course is open; the rest are left out, never the
 * acceptance. A paid course with no free seat (decision 0065) undoes the whole acceptance
 * (`rollback({ full })`): the invitation stays open, and the page names the course.
 */
function* enrollCarriedSteps(
	tx: Tx,
	invitation: Invitation,
	learner: { tenantId: string; userId: string },
	open: Map<string, CourseSummary>,
) {
	for (const carried of yield* invitationCoursesSteps(tx, learner.tenantId, invitation.id)) {
		const course = open.get(carried.courseSlug)
		if (!carried.mayGrant || !course) continue
		if (isPaid(course) && (yield* seatRefusalSteps(tx, learner, course.slug))) rollback({ full: course.title })
		const result = yield* enrollSteps(tx, learner, carried.courseSlug)
		if (result.change)
			yield* auditSteps(tx, {
				actorUserId: carried.grantedBy,
				action: 'enrollment.invitation_enrolled',
				targetKind: 'enrollment',
				targetId: result.enrollment.id,
				tenantId: learner.tenantId,
				metadata: {
					courseSlug: carried.courseSlug,
					invitationId: invitation.id,
					...(isPaid(course) ? { seat: 'organisation' } : {}),
				},
			})
	}
}

/**
 * Withdraws pending invitations in the caller's transaction, each with its audit row
 * (`invitation.revoked`, with why): those of an admin who may no longer send them, or a suspended
 * tenant's.
 */
export function* withdrawInvitationsSteps(
	tx: Tx,
	by: { invitedBy: string } | { tenantId: string },
	audit: (invitation: Invitation) => AuditInput,
) {
	const rows = yield* withdrawPendingInvitationsSteps(tx, by)
	for (const row of rows) yield* auditSteps(tx, audit(row))
	return rows
}

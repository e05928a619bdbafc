import { usersByEmails } from '#db/admin.ts'
import { auditSteps } from '#db/audit.ts'
import { assignedCourseSlugs, findEnrollment } from '#db/learning.ts'
import { INVITABLE_ROLES, ROLES } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import { localePath } from '#app/i18n/locales.ts'
import { invitableCourses, offerInvitationSteps } from '../accounts/invitations.server.ts'
import { recipientMailContext, siteName } from '../content/site.server.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import type { AdminJobPayloads } from './jobs.server.ts'
import { emailField, nameField } from '../platform/validation.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'

/*
 * Onboarding many people at once (decision 0040): the invite page's lists. Each row becomes one
 * invitation (new or refreshed), or is reported as why not; every invitation, its courses, its
 * audit row and its mail job are one transaction.
 */

/** What became of one row of an invitation list (catalogue keys `admin.invite.outcomes.*`). */
export type InviteOutcome =
	| 'invited'
	| 'refreshed'
	| 'memberInvited'
	| 'member'
	| 'deactivated'
	| 'invalid'
	| 'duplicate'
	| 'unknownRole'
	| 'roleNotAllowed'
	| 'unknownCourse'
	| 'courseNeeded'

export interface InviteReportRow {
	/** The file's line, or the position in the paste. */
	row: number
	/** The address as given, cut to a length a table can show (shown as text, never as markup). */
	value: string
	outcome: InviteOutcome
	/** The invitation made or refreshed. */
	invitationId?: string
	/** The member the address already belongs to. */
	userId?: string
}

export interface InviteRequest {
	row: number
	email: string
	name: string
	/** A role code, '' for the form's default. */
	role: string
	/** A course slug, '' for none. */
	course: string
}

const SHOWN = 120
const shown = (value: string) => (value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value)
const RANK = { student: 0, course_admin: 1, tenant_admin: 2, super_admin: 3 } as const
/** Role cells as people write them: the codes, spaces or dashes for underscores, "learner". */
const ROLE_WORDS: Record<string, (typeof ROLES)[number]> = {
	learner: 'student',
	...Object.fromEntries(ROLES.map((r) => [r, r])),
}
const readRole = (cell: string) =>
	ROLE_WORDS[
		cell
			.trim()
			.toLowerCase()
			.replace(/[\s-]+/g, '_')
	]

/** One invitation (new or refreshed) and its audit row, together; its mail is a job of the same transaction. */
function sendInvitation(
	scope: AdminScope,
	tenant: Tenant,
	input: {
		email: string
		role: (typeof INVITABLE_ROLES)[number]
		courseSlug: string | null
		name: string | null
		carried: string[]
	},
) {
	const { email, role, courseSlug, name, carried } = input
	return inTransaction(scope.ctx.db, function* (tx) {
		const offer = yield* offerInvitationSteps(
			tx,
			jobSite(scope.ctx),
			{
				tenantId: tenant.id,
				email,
				role,
				courseSlug,
				name,
				invitedBy: scope.session.user.id,
			},
			{ courses: carried },
		)
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				offer.refreshed ? 'invitation.refreshed' : 'invitation.sent',
				{ kind: 'invitation', id: offer.invitation.id, tenantId: tenant.id },
				{ email, role, courseSlug, ...(carried.length ? { courses: carried } : {}) },
			),
		)
		return offer
	})
}

/** The role and course a row asks for, within what the inviter may give; else the row's outcome. */
function askedFor(
	request: InviteRequest,
	defaults: { role: (typeof INVITABLE_ROLES)[number]; course: string },
	inviterRank: number,
	courses: ReadonlySet<string>,
) {
	const named = request.role ? readRole(request.role) : defaults.role
	if (!named) return { outcome: 'unknownRole' as const }
	// Never a role above the inviter's, nor one an invitation does not offer (super admin).
	const role = INVITABLE_ROLES.find((r) => r === named && RANK[r] <= inviterRank)
	if (!role) return { outcome: 'roleNotAllowed' as const }
	const course = request.course ? request.course.trim() : request.role ? '' : defaults.course
	// Another tenant's slug, a draft or a typo: all the same here.
	if (course && !courses.has(course)) return { outcome: 'unknownCourse' as const }
	if (role === 'course_admin' && !course) return { outcome: 'courseNeeded' as const }
	return { role, course }
}

/**
 * Invites the rows' people to this tenant, each reported. An address that already signs in here
 * (proven) is invited only when the invitation would give it something (a higher role, or a
 * course to administer): otherwise it is reported as a member and nothing is sent. A learner row's
 * course is an enrollment the invitation carries (a paid course's is a seat, decision 0040); a
 * course admin row's is the course to administer. Repeated addresses after the first are reported.
 */
export async function inviteRows(
	scope: AdminScope,
	tenant: Tenant,
	rows: InviteRequest[],
	defaults: { role: (typeof INVITABLE_ROLES)[number]; course: string },
) {
	const { ctx } = scope
	const courses = new Set((await invitableCourses(ctx)).map((c) => c.slug))
	const seen = new Set<string>()
	const emails = rows.map((r) => emailField.safeParse(r.email))
	const members = await usersByEmails(
		ctx.db,
		tenant.id,
		emails.flatMap((e) => (e.success ? [e.data] : [])),
	)
	const inviterRank = RANK[scope.session.user.role]
	const report: InviteReportRow[] = []
	for (const [i, request] of rows.entries()) {
		const base = { row: request.row, value: shown(request.email) }
		const parsed = emails[i]
		if (!parsed.success) {
			report.push({ ...base, outcome: 'invalid' })
			continue
		}
		const email = parsed.data
		if (seen.has(email)) {
			report.push({ ...base, outcome: 'duplicate' })
			continue
		}
		seen.add(email)
		const asked = askedFor(request, defaults, inviterRank, courses)
		if (asked.outcome) {
			report.push({ ...base, outcome: asked.outcome })
			continue
		}
		const { role, course } = asked
		const member = members.get(email)
		if (member?.deactivatedAt) {
			report.push({ ...base, outcome: 'deactivated', userId: member.id })
			continue
		}
		if (member?.verifiedAt) {
			const gives =
				RANK[role] > RANK[member.role] ||
				(role === 'course_admin' &&
					member.role === 'course_admin' &&
					!(await assignedCourseSlugs(ctx.db, { tenantId: tenant.id, userId: member.id })).includes(course))
			if (!gives) {
				report.push({ ...base, outcome: 'member', userId: member.id })
				continue
			}
		}
		// A name the account could not have (too long, control characters) is not kept: the invitee types theirs.
		const name = nameField.safeParse(request.name)
		const courseSlug = role === 'course_admin' ? course : null
		const carried = role !== 'course_admin' && course ? [course] : []
		const { invitation, refreshed } = await sendInvitation(scope, tenant, {
			email,
			role,
			courseSlug,
			name: name.success ? name.data : null,
			carried,
		})
		report.push({
			...base,
			outcome: member?.verifiedAt ? 'memberInvited' : refreshed ? 'refreshed' : 'invited',
			invitationId: invitation.id,
		})
	}
	return report
}

/**
 * The learner is told, in their locale, that an admin enrolled them, with the course's link; nothing
 * when the enrollment is no longer active or the account is gone or deactivated (a job, decision 0033).
 */
export async function mailEnrollment(ctx: MailContext, job: AdminJobPayloads['mail.enrolled']) {
	const learner = await findUserById(ctx.db, job.userId)
	if (!learner || learner.deactivated_at || learner.tenant_id !== job.tenantId)
		return 'the learner is gone or deactivated'
	const enrollment = await findEnrollment(ctx.db, { tenantId: job.tenantId, userId: learner.id }, job.courseSlug)
	if (enrollment?.status !== 'active') return 'the enrollment is no longer active'
	let title = job.title
	try {
		title = (await ctx.cms.course(ctx.site, job.courseSlug, learner.locale))?.title ?? title
	} catch {
		// The title the request had.
	}
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail({
			kind: 'enrolled_by_admin',
			to: learner.email,
			locale: learner.locale,
			site: await siteName(to, learner.locale),
			url: absoluteUrl(to, localePath(learner.locale, `/learn/course/${job.courseSlug}`)),
			values: { course: title },
		}),
	)
}

import { learnerPasses } from '#db/course-results.ts'
import { z } from 'zod'
import { usersByEmails } from '#db/admin.ts'
import { auditSteps } from '#db/audit.ts'
import { cancelEnrollmentSteps, enrollSteps, listAllProgress, listEnrollments, type Scope } from '#db/learning.ts'
import { recentAttempts } from '#db/quiz-attempts.ts'
import type { EnrollmentStatus } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { seatRefusalSteps } from '#db/seats.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { readContent } from '../content/cms.server.ts'
import { isPaid, isPublished, type Course } from '../content/content.ts'
import { offerInvitationSteps } from '../accounts/invitations.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import { adminJobs } from './jobs.server.ts'
import { dashboardView, tags } from '../learning/learning.server.ts'
import { emailField, nameField } from '../platform/validation.ts'
import { readLanguage } from './email-list.server.ts'
import type { Locale } from '#db/schema/values.ts'

/** What became of one row of an enrollment list (catalogue keys `adminCourses.enroll.outcomes.*`). */
export type EnrollOutcome =
	| 'enrolled'
	| 'reactivated'
	| 'alreadyEnrolled'
	| 'invited'
	| 'invitationRefreshed'
	| 'deactivated'
	| 'invalid'
	| 'duplicate'
	/** A language cell that names no supported language (decision 0065): nothing done, never guessed. */
	| 'unknownLanguage'
	/** A paid course whose seats are all taken (decision 0065): nothing written, nothing sent. */
	| 'full'

export interface ReportRow {
	/** The row as given, cut to a length a table can show (it is shown as text, never as markup). */
	value: string
	outcome: EnrollOutcome
	/** The enrollment's status when it was already there (active, completed, pending). */
	status?: EnrollmentStatus
	/** The person enrolled, for a link to their page. */
	userId?: string
	/** The invitation that carries the enrollment (an address without an account here). */
	invitationId?: string
}

const SHOWN = 120
const shown = (value: string) => (value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value)

/**
 * Why the course cannot take admin enrollments, or null: the learner must be able to open it
 * (published, not archived). A paid course takes them: each is a seat the organisation grants
 * (decision 0040; the learner's own enrollment still answers 501).
 */
export function enrollRefusal(course: Course) {
	if (!isPublished(course)) return 'adminCourses.enroll.errors.notOpen'
	return null
}

type Seat = { seat?: string }

/** One row of an enrollment list: the address, and the name and language a CSV gave ('' for none). */
export interface EnrollRequest {
	email: string
	name: string
	language: string
}

/** A learner invitation carrying the course, with the list's name and language, and its audit row, together. */
function inviteToCourse(
	scope: AdminScope,
	tenant: Tenant,
	course: Course,
	invitee: { email: string; name: string | null; locale: Locale | null },
	seat: Seat,
) {
	const { email, name, locale } = invitee
	return inTransaction(scope.ctx.db, function* (tx) {
		// A full course is refused now rather than at acceptance: nobody could take the seat.
		if (isPaid(course) && (yield* seatRefusalSteps(tx, { tenantId: tenant.id, userId: null }, course.slug))) return null
		// A learner invitation that only adds this course when one is already open for the address.
		const offer = yield* offerInvitationSteps(
			tx,
			jobSite(scope.ctx),
			{ tenantId: tenant.id, email, name, locale, role: 'student', invitedBy: scope.session.user.id },
			{ courses: [course.slug], keepOffer: true },
		)
		yield* auditSteps(
			tx,
			adminAudit(
				scope,
				offer.refreshed ? 'invitation.refreshed' : 'invitation.sent',
				{ kind: 'invitation', id: offer.invitation.id, tenantId: tenant.id },
				{ email, role: offer.invitation.role, courses: [course.slug], ...seat },
			),
		)
		return offer
	})
}

/** The enrollment, its audit row and the learner's mail (a job), together; written only when the row changed. */
function enrollOne(scope: AdminScope, tenant: Tenant, course: Course, userId: string, seat: Seat) {
	const learner = { tenantId: tenant.id, userId }
	return inTransaction(scope.ctx.db, function* (tx) {
		// A paid course with a seat limit: a seat taken under the course's lock, or none left (decision 0065).
		if (isPaid(course) && (yield* seatRefusalSteps(tx, learner, course.slug))) return null
		const result = yield* enrollSteps(tx, learner, course.slug)
		if (result.change)
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					result.change === 'created' ? 'enrollment.admin_enrolled' : 'enrollment.admin_reactivated',
					{ kind: 'enrollment', id: result.enrollment.id, tenantId: tenant.id },
					{ courseSlug: course.slug, ...seat },
				),
			)
		// The learner is told, in their locale, with the course's link.
		if (result.change)
			yield* adminJobs.enqueueSteps(tx, 'mail.enrolled', {
				...jobSite(scope.ctx),
				tenantId: tenant.id,
				courseSlug: course.slug,
				userId,
				title: course.title,
			})
		return result
	})
}

/**
 * Enrolls the people of this tenant that the rows name, each row reported. An address with no
 * account in this tenant gets an invitation carrying the enrollment (decision 0040: new, or its
 * open one refreshed with the course added); an address of another tenant is treated exactly like
 * one nobody has, so the report says nothing about other tenants. Each enrollment, its audit row
 * (a paid course's marked as the organisation's seat) and the job that mails the learner are one
 * transaction, written only by the request that changed the row (enrollSteps), so repeating a
 * list enrolls and mails nobody twice.
 */
export async function enrollRows(scope: AdminScope, tenant: Tenant, course: Course, rows: EnrollRequest[]) {
	const seen = new Set<string>()
	const parsed = rows.map((request) => {
		const value = request.email
		const email = emailField.safeParse(value)
		if (!email.success) return { value, email: null, duplicate: false }
		const duplicate = seen.has(email.data)
		seen.add(email.data)
		// A name the account could not have (too long, control characters) is not kept: the invitee types theirs.
		const name = nameField.safeParse(request.name)
		const locale = readLanguage(request.language)
		return { value, email: email.data, duplicate, name: name.success ? name.data : null, locale }
	})
	const users = await usersByEmails(scope.ctx.db, tenant.id, [...seen])
	// An enrollment in a paid course is a seat the organisation grants: its audit rows say so.
	const seat = isPaid(course) ? { seat: 'organisation' } : {}
	const report: ReportRow[] = []
	const changed: string[] = []
	for (const row of parsed) {
		const value = shown(row.value)
		if (!row.email) report.push({ value, outcome: 'invalid' })
		else if (row.duplicate) report.push({ value, outcome: 'duplicate' })
		else if (row.locale === 'unknown') report.push({ value, outcome: 'unknownLanguage' })
		else {
			const user = users.get(row.email)
			if (!user) {
				const invitee = { email: row.email, name: row.name ?? null, locale: row.locale ?? null }
				const offer = await inviteToCourse(scope, tenant, course, invitee, seat)
				if (!offer) report.push({ value, outcome: 'full' })
				else
					report.push({
						value,
						outcome: offer.refreshed ? 'invitationRefreshed' : 'invited',
						invitationId: offer.invitation.id,
					})
			} else if (user.deactivatedAt) report.push({ value, outcome: 'deactivated', userId: user.id })
			else {
				const enrolled = await enrollOne(scope, tenant, course, user.id, seat)
				if (!enrolled) {
					report.push({ value, outcome: 'full', userId: user.id })
					continue
				}
				const { enrollment, change } = enrolled
				if (change) changed.push(user.id)
				report.push(
					change === 'created'
						? { value, outcome: 'enrolled', userId: user.id }
						: change === 'reactivated'
							? { value, outcome: 'reactivated', userId: user.id }
							: { value, outcome: 'alreadyEnrolled', status: enrollment.status, userId: user.id },
				)
			}
		}
	}
	if (changed.length) scope.ctx.tags.revalidate(changed.map(tags.progress))
	return report
}

/** Cancels one enrollment of a user of this tenant, with its audit row; false when there was none to cancel. */
export async function cancelEnrollment(scope: AdminScope, learner: Scope, courseSlug: string) {
	const done = await inTransaction(scope.ctx.db, function* (tx) {
		const cancelled = yield* cancelEnrollmentSteps(tx, learner, courseSlug)
		if (cancelled)
			yield* auditSteps(
				tx,
				adminAudit(
					scope,
					'enrollment.cancelled',
					{ kind: 'enrollment', id: cancelled.enrollment.id, tenantId: learner.tenantId },
					{ courseSlug, from: cancelled.from },
				),
			)
		return cancelled
	})
	if (done) scope.ctx.tags.revalidate([tags.progress(learner.userId)])
	return Boolean(done)
}

/** A course slug as the content service names them (the cancel form's hidden field). */
export const courseSlugField = z
	.string()
	.trim()
	.regex(/^[a-z0-9-]{1,100}$/, 'admin.user.enrollments.unknownCourse')

/**
 * A user's learning as their admin page shows it: every enrollment (cancelled ones too) with its
 * progress, counted the way the learner's dashboard counts it (dashboardView), and the latest quiz
 * attempts. A course the content service no longer has is listed by its slug.
 */
export async function learningRecord(scope: AdminScope, learner: Scope) {
	const { ctx } = scope
	const [enrollments, progress, attempts, passes] = await Promise.all([
		listEnrollments(ctx.db, learner),
		listAllProgress(ctx.db, learner),
		recentAttempts(ctx.db, learner, 10),
		learnerPasses(ctx.db, learner),
	])
	const courses = await Promise.all(
		enrollments.map((e) =>
			readContent(`course ${e.course_slug}`, () => ctx.cms.course(ctx.site, e.course_slug, ctx.locale)),
		),
	)
	const known = enrollments.flatMap((enrollment, i) => (courses[i] ? [{ enrollment, course: courses[i] }] : []))
	const view = dashboardView(known, progress, attempts, [])
	const sorted = [...enrollments].sort((a, b) => b.enrolled_at.getTime() - a.enrolled_at.getTime())
	return {
		userId: learner.userId,
		enrollments: sorted.map((e) => {
			const card = view.courses.find((c) => c.slug === e.course_slug)
			return {
				courseSlug: e.course_slug,
				title: card?.title ?? e.course_slug,
				lang: card?.lang,
				status: e.status,
				enrolledAt: e.enrolled_at.toISOString(),
				completedCount: card?.completedCount ?? null,
				total: card?.total ?? null,
				percent: card?.percent ?? null,
				// The stored course result (decision 0037).
				passed: passes.get(e.course_slug)?.passed === true,
			}
		}),
		attempts: view.scores.map((s) => ({
			...s,
			at: attempts.find((a) => a.id === s.key)?.submitted_at?.toISOString() ?? null,
		})),
	}
}

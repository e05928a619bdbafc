import {
	apiCertificate,
	apiCertificates,
	apiEnrollment,
	apiEnrollments,
	apiQuizAttempts,
	apiSubmissions,
	apiUser,
	type RecordFilters,
} from '#db/api-lists.ts'
import type { Submission } from '#db/submissions.ts'
import type { Certificate } from '#db/certificates.ts'
import { findEnrollment } from '#db/learning.ts'
import type { Enrollment } from '#db/learning.ts'
import { revokeByAdmin } from '../certificates/award.server.ts'
import { verificationPath } from '../certificates/issue.server.ts'
import { readCatalogue } from '../content/cms.server.ts'
import { isPaid } from '../content/content.ts'
import { requireAdminCourse } from '../admin/admin.server.ts'
import { cancelEnrollment, enrollRefusal, enrollRows, learningRecord } from '../admin/admin-enrollments.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import {
	certificateListQuery,
	emptyBody,
	emptyQuery,
	enrollBody,
	enrollmentListQuery,
	quizAttemptListQuery,
	revokeBody,
	submissionListQuery,
} from '../platform/api-v1-schemas.ts'
import { DEFAULT_LIMIT, decodeCursor, iso, pageOf, queryOf, type ApiCall, type ApiHandler } from './api.server.ts'
import { ApiProblem, parse } from './problems.server.ts'

/*
 * /api/v1/ enrollments, progress, certificates and courses (issue 49, decision 0071), through the
 * admin pages' code paths (enrollRows, cancelEnrollment, learningRecord, revokeByAdmin). A key
 * limited to one course sees and changes that course only: naming another is a 403.
 */

/** The course a call may see: the key's own when it has one (another named: 403), else the one named. */
function courseOf(call: ApiCall, named: string | undefined) {
	const own = call.caller.key.course_slug
	if (own && named !== undefined && named !== own)
		throw new ApiProblem(403, 'FORBIDDEN', 'This API key is limited to another course.')
	return own ?? named
}

/** The filters of a learning-record list: the key's course wins (another named: 403). */
function recordFilters(
	call: ApiCall,
	query: { course?: string; user?: string; updated_since?: string; limit?: number; cursor?: string },
) {
	const limit = query.limit ?? DEFAULT_LIMIT
	const page = { tenantId: call.caller.tenant.id, after: decodeCursor(query.cursor), limit }
	const filters: RecordFilters = {
		courseSlug: courseOf(call, query.course),
		userId: query.user,
		updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
	}
	return { limit, page, filters }
}

function enrollmentView(e: Enrollment) {
	return {
		id: e.id,
		userId: e.user_id,
		courseSlug: e.course_slug,
		status: e.status,
		enrolledAt: e.enrolled_at.toISOString(),
		completedAt: iso(e.completed_at),
	}
}

export const listEnrollments: ApiHandler = async (call) => {
	const { limit, page, filters } = recordFilters(call, parse(enrollmentListQuery, queryOf(call.url), 'query'))
	const rows = await apiEnrollments(call.ctx.db, page, filters)
	return { status: 200, body: pageOf(rows, limit, enrollmentView) }
}

/**
 * Enrolls a person of this site in a published course, as the course's enroll page does (a paid
 * course's enrollment is a seat the organisation grants, refused when none is free): 201 when it
 * made or reactivated the enrollment, 200 when it was there already.
 */
export const enroll: ApiHandler = async (call) => {
	const input = parse(enrollBody, call.body, 'body')
	const slug = courseOf(call, input.course)!
	const { scope, tenant } = call.caller
	const user = await apiUser(call.ctx.db, tenant.id, input.userId)
	if (!user) throw new ApiProblem(404, 'NOT_FOUND', 'No such user on this site.')
	const course = await requireAdminCourse(scope, slug)
	if (enrollRefusal(course)) throw new ApiProblem(409, 'CONFLICT', 'The course is not open to learners.')
	const [row] = await enrollRows(scope, tenant, course, [{ email: user.email, name: '', language: '' }])
	if (row.outcome === 'full') throw new ApiProblem(409, 'CONFLICT', 'The course has no free seat.')
	if (row.outcome === 'deactivated') throw new ApiProblem(409, 'CONFLICT', 'The user is deactivated.')
	const enrollment = await findEnrollment(call.ctx.db, { tenantId: tenant.id, userId: user.id }, slug)
	if (!enrollment) throw new ApiProblem(409, 'CONFLICT', 'The enrollment was not made.')
	const made = row.outcome === 'enrolled' || row.outcome === 'reactivated'
	return { status: made ? 201 : 200, body: enrollmentView(enrollment) }
}

async function requireEnrollment(call: ApiCall) {
	const found = await apiEnrollment(call.ctx.db, call.caller.tenant.id, call.params.enrollmentId ?? '')
	if (!found) throw new ApiProblem(404, 'NOT_FOUND', 'No such enrollment on this site.')
	courseOf(call, found.course_slug)
	return found
}

/** Cancels the enrollment (the learner keeps their progress, as on the user's admin page). */
export const unenroll: ApiHandler = async (call) => {
	parse(emptyBody, call.body, 'body')
	const found = await requireEnrollment(call)
	await cancelEnrollment(call.caller.scope, { tenantId: found.tenant_id, userId: found.user_id }, found.course_slug)
	return { status: 200, body: enrollmentView((await requireEnrollment(call)) ?? found) }
}

/** A learner's progress and result in one course, counted as their admin page counts them. */
export const readProgress: ApiHandler = async (call) => {
	parse(emptyQuery, queryOf(call.url), 'query')
	const slug = courseOf(call, call.params.courseSlug)!
	const { scope, tenant } = call.caller
	const user = await apiUser(call.ctx.db, tenant.id, call.params.userId ?? '')
	if (!user) throw new ApiProblem(404, 'NOT_FOUND', 'No such user on this site.')
	const record = await learningRecord(scope, { tenantId: tenant.id, userId: user.id })
	const found = record.enrollments.find((e) => e.courseSlug === slug)
	if (!found) throw new ApiProblem(404, 'NOT_FOUND', 'The user was never enrolled in this course.')
	const { courseSlug, status, enrolledAt, completedCount, total, percent, passed } = found
	return {
		status: 200,
		body: { userId: user.id, courseSlug, status, enrolledAt, completedCount, total, percent, passed },
	}
}

/** Quiz attempts, by course or person, with each one's score, result and lateness. */
export const listQuizAttempts: ApiHandler = async (call) => {
	const { limit, page, filters } = recordFilters(call, parse(quizAttemptListQuery, queryOf(call.url), 'query'))
	const rows = await apiQuizAttempts(call.ctx.db, page, filters)
	return {
		status: 200,
		body: pageOf(rows, limit, (a) => ({
			id: a.id,
			userId: a.user_id,
			courseSlug: a.course_slug,
			entrySlug: a.entry_slug,
			number: a.attempt_number,
			score: a.score,
			passed: a.passed,
			startedAt: a.started_at.toISOString(),
			submittedAt: iso(a.submitted_at),
			dueAt: iso(a.due_at),
			late: a.late ?? false,
		})),
	}
}

function submissionView(s: Submission) {
	return {
		id: s.id,
		userId: s.user_id,
		courseSlug: s.course_slug,
		entrySlug: s.entry_slug,
		number: s.submission_number,
		status: s.status,
		textAnswer: s.text_answer,
		linkUrl: s.link_url,
		submittedAt: s.submitted_at.toISOString(),
		dueAt: iso(s.due_at),
		late: s.late,
		score: s.score,
		maxScore: s.max_score,
		passed: s.passed,
		feedback: s.feedback,
		gradedAt: iso(s.graded_at),
		gradedBy: s.graded_by,
	}
}

/** Assignment submissions, by course or person, with their grades (null until graded). */
export const listSubmissions: ApiHandler = async (call) => {
	const { limit, page, filters } = recordFilters(call, parse(submissionListQuery, queryOf(call.url), 'query'))
	const rows = await apiSubmissions(call.ctx.db, page, filters)
	return { status: 200, body: pageOf(rows, limit, submissionView) }
}

function certificateView(call: ApiCall, c: Certificate) {
	return {
		id: c.id,
		publicId: c.public_id,
		userId: c.user_id,
		courseSlug: c.course_slug,
		courseTitle: c.course_title,
		recipientName: c.recipient_name,
		issuedAt: c.issued_at.toISOString(),
		revokedAt: iso(c.revoked_at),
		revokedReason: c.revoked_reason,
		verificationUrl: absoluteUrl(call.ctx, verificationPath(c.public_id)),
	}
}

export const listCertificates: ApiHandler = async (call) => {
	const query = parse(certificateListQuery, queryOf(call.url), 'query')
	const limit = query.limit ?? DEFAULT_LIMIT
	const rows = await apiCertificates(
		call.ctx.db,
		{ tenantId: call.caller.tenant.id, after: decodeCursor(query.cursor), limit },
		{ courseSlug: courseOf(call, query.course), userId: query.user },
	)
	return { status: 200, body: pageOf(rows, limit, (c) => certificateView(call, c)) }
}

async function requireCertificate(call: ApiCall) {
	const found = await apiCertificate(call.ctx.db, call.caller.tenant.id, call.params.certificateId ?? '')
	if (!found) throw new ApiProblem(404, 'NOT_FOUND', 'No such certificate on this site.')
	courseOf(call, found.course_slug)
	return found
}

/** The certificate with its signed credential, exactly as issued (a verifier checks its proof). */
export const readCertificate: ApiHandler = async (call) => {
	parse(emptyQuery, queryOf(call.url), 'query')
	const found = await requireCertificate(call)
	const credential = JSON.parse(found.credential_json) as Record<string, unknown>
	return { status: 200, body: { ...certificateView(call, found), credential } }
}

/** Revokes a live certificate with its reason, as the course's certificates page does; 409 when it was not live. */
export const revokeCertificate: ApiHandler = async (call) => {
	const { reason } = parse(revokeBody, call.body, 'body')
	const found = await requireCertificate(call)
	const { scope } = call.caller
	const audit = adminAudit(
		scope,
		'certificate.revoked',
		{ kind: 'certificate', id: found.id, tenantId: found.tenant_id },
		{ courseSlug: found.course_slug, learnerUserId: found.user_id, publicId: found.public_id, reason },
	)
	if (found.revoked_at || !(await revokeByAdmin(call.ctx.db, found, reason, scope.session.user.id, audit)))
		throw new ApiProblem(409, 'CONFLICT', 'The certificate was already revoked.')
	return { status: 200, body: certificateView(call, (await requireCertificate(call)) ?? found) }
}

/** The site's courses in every state, as its administration lists them, with their pages' links. */
export const listCourses: ApiHandler = async (call) => {
	parse(emptyQuery, queryOf(call.url), 'query')
	const own = call.caller.key.course_slug
	const courses = (await readCatalogue(call.ctx)).filter((c) => !own || c.slug === own)
	const data = courses.map((c) => ({
		slug: c.slug,
		title: c.title,
		summary: c.summary,
		status: c.status,
		listed: c.listed,
		publishedAt: c.publishedAt,
		paid: isPaid(c),
		entryCount: c.entryCount,
		url: absoluteUrl(call.ctx, `/learn/course/${c.slug}`),
		adminUrl: absoluteUrl(call.ctx, `/admin/courses/${c.slug}/dashboard`),
	}))
	return { status: 200, body: { data, nextCursor: null } }
}

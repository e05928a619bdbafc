// The REST API's operations (/api/v1/, issue 49, decision 0071) for the route contract: joined into
// API_OPERATIONS by app/platform/api-contract.ts, with the schemas of app/platform/api-v1-schemas.ts.
import { z } from 'zod'
import type { ApiOperation, ApiResponse } from './api-contract-types.ts'
import {
	apiCertificate,
	apiCertificateWithCredential,
	apiEnrollment,
	apiProgress,
	apiUser,
	apiV1Params,
	certificateListQuery,
	certificatePage,
	coursePage,
	createUserBody,
	emptyBody,
	enrollBody,
	enrollmentListQuery,
	enrollmentPage,
	problem,
	quizAttemptListQuery,
	quizAttemptPage,
	revokeBody,
	roleBody,
	submissionListQuery,
	submissionPage,
	apiTenant,
	createTenantBody,
	tenantListQuery,
	tenantPage,
	tenantStatusBody,
	userListQuery,
	userPage,
} from './api-v1-schemas.ts'

const fail = (description: string): ApiResponse => ({ description, json: problem, problem: true })
/** What every call may answer before its own work (decision 0071). */
const COMMON: Record<number, ApiResponse> = {
	400: fail(
		'A query or body that is not valid (unknown filter, limit above 200, bad cursor), or an API key in the URL.',
	),
	401: fail(
		'No API key, or one that is not valid on this host (unknown, revoked, another site’s, or its creator no longer administers the site).',
	),
	404: fail('No such record on this site. Or: the host serves no site (then an application/json Error).'),
	429: fail('The key’s rate limit (600 a minute) is exhausted (Retry-After).'),
}
const WRITE: Record<number, ApiResponse> = {
	...COMMON,
	403: fail('A read-only key, or a key limited to another course (or to one course, for people).'),
	409: fail(
		'The Idempotency-Key was used with another request, or its first request is still at work; or the change conflicts with the record’s state.',
	),
	413: fail('A body larger than 64 KiB.'),
}
const READ: Record<number, ApiResponse> = {
	...COMMON,
	304: { description: 'Not modified (If-None-Match matched the ETag).' },
	403: fail('A key limited to another course (or to one course, for people).'),
}
const ok = (description: string, json: z.ZodType): ApiResponse => ({
	description: `${description} With an ETag; If-None-Match answers 304.`,
	json,
})
const done = (description: string, json: z.ZodType): ApiResponse => ({ description, json })

const IDEMPOTENT =
	' Send an `Idempotency-Key` header (1 to 255 visible ASCII characters) to make a retry safe: the same key with the same body answers the first answer again (`Idempotent-Replayed: true`), with another body 409.'

type V1 = Omit<ApiOperation, 'security' | 'tags'> & { tags: ApiOperation['tags'] }
const v1 = (op: V1): ApiOperation => ({ ...op, security: 'apiKey' })
const { userId, enrollmentId, certificateId, courseSlug, tenantId } = apiV1Params

/** What the platform's operations (/api/v1/tenants, decision 0087) may answer before their own work. */
const PLATFORM: Record<number, ApiResponse> = {
	...COMMON,
	401: fail(
		'No API key, or one that is not valid on this host: a platform key (`lmsp_…`) works on the platform’s own host only, and only while its super admin is one.',
	),
	403: fail('A site’s key (`lmsk_…`): tenants are managed with a platform key. Or a read-only key writing.'),
	404: fail('No such tenant. Or: the host serves no site (then an application/json Error).'),
}
const PLATFORM_WRITE: Record<number, ApiResponse> = {
	...PLATFORM,
	409: WRITE[409],
	413: WRITE[413],
}

export const API_V1_OPERATIONS: ApiOperation[] = [
	v1({
		method: 'get',
		path: '/api/v1/users',
		operationId: 'listUsers',
		tags: ['users'],
		summary: 'List the site’s people',
		description:
			'Pages in a stable order (a person added while a client pages is never repeated nor skipped for the others); filter by exact email, role or `updated_since` for incremental sync. Erased people are left out.',
		query: userListQuery,
		responses: { 200: ok('A page of people.', userPage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'post',
		path: '/api/v1/users',
		operationId: 'createUser',
		tags: ['users'],
		summary: 'Create a person (with or without an invitation mail)',
		description: `An account of this site, unverified and without a password; with \`sendInvitation\`, also the invitation whose link lets them choose one. Audited as user.created (and invitation.sent) with the key's id.${IDEMPOTENT}`,
		body: { media: 'application/json', schema: createUserBody },
		responses: { 201: done('The new person.', apiUser), ...WRITE },
		example: { apiKey: true, body: { email: 'contract@acme.test', name: 'Connie Contract' }, expect: 201 },
	}),
	v1({
		method: 'get',
		path: '/api/v1/users/{userId}',
		operationId: 'getUser',
		tags: ['users'],
		summary: 'Read one person',
		description: 'One person of this site; another site’s id is a 404.',
		params: z.object({ userId }),
		responses: { 200: ok('The person.', apiUser), ...READ },
	}),
	v1({
		method: 'post',
		path: '/api/v1/users/{userId}/role',
		operationId: 'changeUserRole',
		tags: ['users'],
		summary: 'Change a person’s role',
		description: `As the person’s admin page does: a course admin names a published course; a step down withdraws the invitations they may no longer send. Not the key creator’s own role.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ userId }),
		body: { media: 'application/json', schema: roleBody },
		responses: { 200: done('The person after the change.', apiUser), ...WRITE },
	}),
	v1({
		method: 'post',
		path: '/api/v1/users/{userId}/deactivate',
		operationId: 'deactivateUser',
		tags: ['users'],
		summary: 'Deactivate a person',
		description: `Signs them out everywhere and withdraws their pending invitations, as the admin page does. Already deactivated: nothing changes.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ userId }),
		body: { media: 'application/json', schema: emptyBody },
		responses: { 200: done('The person after the change.', apiUser), ...WRITE },
	}),
	v1({
		method: 'post',
		path: '/api/v1/users/{userId}/reactivate',
		operationId: 'reactivateUser',
		tags: ['users'],
		summary: 'Reactivate a person',
		description: `Already active: nothing changes.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ userId }),
		body: { media: 'application/json', schema: emptyBody },
		responses: { 200: done('The person after the change.', apiUser), ...WRITE },
	}),
	v1({
		method: 'get',
		path: '/api/v1/users/{userId}/progress/{courseSlug}',
		operationId: 'getProgress',
		tags: ['enrollments'],
		summary: 'A learner’s progress and result in one course',
		description: 'Entries completed, of how many, and whether the course is passed (its stored result).',
		params: z.object({ userId, courseSlug }),
		responses: { 200: ok('The progress.', apiProgress), ...READ },
	}),
	v1({
		method: 'get',
		path: '/api/v1/enrollments',
		operationId: 'listEnrollments',
		tags: ['enrollments'],
		summary: 'List enrollments, by course or person',
		description:
			'Pages in a stable order; `updated_since` matches an enrollment made, reactivated or completed at or after it (a cancellation keeps no time: the `enrollment.removed` webhook tells it).',
		query: enrollmentListQuery,
		responses: { 200: ok('A page of enrollments.', enrollmentPage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'post',
		path: '/api/v1/enrollments',
		operationId: 'enroll',
		tags: ['enrollments'],
		summary: 'Enroll a person in a course',
		description: `A published course; a paid one’s enrollment is a seat the organisation grants (409 when none is free). 201 when made or reactivated, 200 when it was there.${IDEMPOTENT}`,
		body: { media: 'application/json', schema: enrollBody },
		responses: {
			200: done('Already enrolled.', apiEnrollment),
			201: done('Enrolled.', apiEnrollment),
			...WRITE,
		},
	}),
	v1({
		method: 'post',
		path: '/api/v1/enrollments/{enrollmentId}/cancel',
		operationId: 'cancelEnrollment',
		tags: ['enrollments'],
		summary: 'Unenroll',
		description: `Cancels the enrollment; the learner’s progress is kept.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ enrollmentId }),
		body: { media: 'application/json', schema: emptyBody },
		responses: { 200: done('The enrollment after the change.', apiEnrollment), ...WRITE },
	}),
	v1({
		method: 'get',
		path: '/api/v1/quiz-attempts',
		operationId: 'listQuizAttempts',
		tags: ['results'],
		summary: 'List quiz attempts, by course or person',
		description:
			'Every submitted attempt with its score (percent), result and lateness; pages in a stable order. `updated_since` compares the time it was submitted.',
		query: quizAttemptListQuery,
		responses: { 200: ok('A page of quiz attempts.', quizAttemptPage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'get',
		path: '/api/v1/submissions',
		operationId: 'listSubmissions',
		tags: ['results'],
		summary: 'List assignment submissions with their grades, by course or person',
		description:
			'Every hand-in, awaiting grading, graded or returned, with its score, result and the grader’s feedback; pages in a stable order. `updated_since` matches a hand-in or a grade given at or after it.',
		query: submissionListQuery,
		responses: { 200: ok('A page of submissions.', submissionPage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'get',
		path: '/api/v1/certificates',
		operationId: 'listCertificates',
		tags: ['certificates'],
		summary: 'List certificates, by course or person',
		description: 'Pages in a stable order, revoked ones too.',
		query: certificateListQuery,
		responses: { 200: ok('A page of certificates.', certificatePage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'get',
		path: '/api/v1/certificates/{certificateId}',
		operationId: 'getCertificate',
		tags: ['certificates'],
		summary: 'Read a certificate with its signed credential',
		description: 'The credential exactly as issued; verify its proof against the issuer’s did:web document.',
		params: z.object({ certificateId }),
		responses: { 200: ok('The certificate.', apiCertificateWithCredential), ...READ },
	}),
	v1({
		method: 'post',
		path: '/api/v1/certificates/{certificateId}/revoke',
		operationId: 'revokeCertificate',
		tags: ['certificates'],
		summary: 'Revoke a certificate',
		description: `Sets its bit in the revocation list, with the reason. Already revoked: 409.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ certificateId }),
		body: { media: 'application/json', schema: revokeBody },
		responses: { 200: done('The certificate after the change.', apiCertificate), ...WRITE },
	}),
	v1({
		method: 'get',
		path: '/api/v1/courses',
		operationId: 'listCourses',
		tags: ['courses'],
		summary: 'The site’s courses',
		description: 'Every course of the site in every state, with its public and administration links (one page).',
		responses: { 200: ok('The courses.', coursePage), ...READ },
		example: { apiKey: true, expect: 200 },
	}),
	v1({
		method: 'get',
		path: '/api/v1/tenants',
		operationId: 'listTenants',
		tags: ['tenants'],
		summary: 'List the platform’s tenants',
		description:
			'Every tenant in a stable order; filter by status or `updated_since` (a status change moves it). A platform key, on the platform’s host.',
		query: tenantListQuery,
		responses: { 200: ok('A page of tenants.', tenantPage), ...PLATFORM, 304: READ[304] },
		example: { host: 'localhost', platformKey: true, expect: 200 },
	}),
	v1({
		method: 'post',
		path: '/api/v1/tenants',
		operationId: 'createTenant',
		tags: ['tenants'],
		summary: 'Create a tenant with its first admin',
		description: `As /admin/tenants does: the tenant, its site in the content service (made by a job) and an invitation of its first admin as tenant_admin. A slug or custom domain already taken: 409. Audited as tenant.created and invitation.sent with the key's id.${IDEMPOTENT}`,
		body: { media: 'application/json', schema: createTenantBody },
		responses: { 201: done('The new tenant.', apiTenant), ...PLATFORM_WRITE },
	}),
	v1({
		method: 'get',
		path: '/api/v1/tenants/{tenantId}',
		operationId: 'getTenant',
		tags: ['tenants'],
		summary: 'Read one tenant',
		description: 'One tenant, whatever its status.',
		params: z.object({ tenantId }),
		responses: { 200: ok('The tenant.', apiTenant), ...PLATFORM, 304: READ[304] },
	}),
	v1({
		method: 'post',
		path: '/api/v1/tenants/{tenantId}/status',
		operationId: 'setTenantStatus',
		tags: ['tenants'],
		summary: 'Suspend, archive or reactivate a tenant',
		description: `As /admin/tenants does: suspending or archiving ends every session of its people and withdraws its pending invitations; its pages answer 503. The same status: nothing changes.${IDEMPOTENT}`,
		refusesGet: true,
		params: z.object({ tenantId }),
		body: { media: 'application/json', schema: tenantStatusBody },
		responses: { 200: done('The tenant after the change.', apiTenant), ...PLATFORM_WRITE },
	}),
]

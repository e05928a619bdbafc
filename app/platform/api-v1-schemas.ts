// The REST API's schemas (/api/v1/, issue 49, decision 0071): what its handlers validate requests with
// and shape answers by (app/integrations/), and what app/platform/api-contract-v1.ts documents.
import { z } from 'zod'
import {
	ENROLLMENT_STATUSES,
	INVITABLE_ROLES,
	LOCALES,
	ROLES,
	SUBMISSION_STATUSES,
	TENANT_STATUSES,
} from '#db/schema/values.ts'
import { errorEnvelope } from './api-schemas.ts'

/** Every error of /api/v1/: RFC 9457's members and the project's `{error, code, issues?}` together. */
export const problem = errorEnvelope
	.extend({
		type: z.string().meta({ description: 'A URI naming the kind of problem; `about:blank` for plain HTTP statuses.' }),
		title: z.string().meta({ description: 'The HTTP status’s reason phrase.' }),
		status: z.number().int(),
		detail: z.string().meta({ description: 'The same sentence as `error`.' }),
	})
	.meta({
		id: 'Problem',
		description: 'RFC 9457 problem details (application/problem+json) carrying the Error envelope.',
	})

/** Pages: at most this many rows, 50 when `limit` is not given. */
const MAX_LIMIT = 200
const limit = z.coerce
	.number()
	.int()
	.min(1)
	.max(MAX_LIMIT)
	.optional()
	.meta({ description: `Rows per page, 1 to ${MAX_LIMIT} (default 50); more is refused (400).` })
const cursor = z.string().max(200).optional().meta({ description: 'The `nextCursor` of the page before; opaque.' })
const updatedSince = z.iso
	.datetime({ offset: true })
	.optional()
	.meta({ description: 'Only rows changed at or after this instant (ISO 8601 with its offset).' })
const paging = { limit, cursor }

const id = z.string().min(1).max(64)
const slug = z
	.string()
	.regex(/^[a-z0-9-]{1,100}$/)
	.meta({ description: 'A course slug.' })

export const apiV1Params = {
	userId: id.meta({ description: 'A user id.' }),
	enrollmentId: id.meta({ description: 'An enrollment id.' }),
	certificateId: id.meta({ description: 'A certificate id.' }),
	courseSlug: slug,
	tenantId: id.meta({ description: 'A tenant id.' }),
}

// Queries are strict: an unknown filter is a 400, never silently ignored.
export const userListQuery = z
	.strictObject({
		...paging,
		email: z.string().max(254).optional().meta({ description: 'Exact address (case ignored).' }),
		role: z.enum(ROLES).optional(),
		updated_since: updatedSince,
	})
	.meta({ id: 'UserListQuery' })
export const enrollmentListQuery = z
	.strictObject({
		...paging,
		course: slug.optional(),
		user: id.optional().meta({ description: 'A user id.' }),
		updated_since: updatedSince,
	})
	.meta({ id: 'EnrollmentListQuery' })
/** The learning-record lists: by course, person or both, and changed since an instant. */
const recordListQuery = (name: string, since: string) =>
	z
		.strictObject({
			...paging,
			course: slug.optional(),
			user: id.optional().meta({ description: 'A user id.' }),
			updated_since: updatedSince.meta({ description: since }),
		})
		.meta({ id: name })
export const quizAttemptListQuery = recordListQuery(
	'QuizAttemptListQuery',
	'Only attempts submitted at or after this instant (ISO 8601 with its offset).',
)
export const submissionListQuery = recordListQuery(
	'SubmissionListQuery',
	'Only submissions handed in, graded or returned at or after this instant (ISO 8601 with its offset).',
)
export const certificateListQuery = z
	.strictObject({ ...paging, course: slug.optional(), user: id.optional().meta({ description: 'A user id.' }) })
	.meta({ id: 'CertificateListQuery' })
export const emptyQuery = z.strictObject({})

const instant = z.string().meta({ description: 'ISO 8601 instant (UTC).' })

export const apiUser = z
	.object({
		id: z.string(),
		email: z.string(),
		name: z.string(),
		role: z.enum(ROLES),
		locale: z.enum(LOCALES),
		status: z.enum(['active', 'unverified', 'deactivated']),
		emailVerifiedAt: instant.nullable(),
		deactivatedAt: instant.nullable(),
		createdAt: instant,
		updatedAt: instant,
	})
	.meta({ id: 'User' })

export const apiEnrollment = z
	.object({
		id: z.string(),
		userId: z.string(),
		courseSlug: z.string(),
		status: z.enum(ENROLLMENT_STATUSES),
		enrolledAt: instant,
		completedAt: instant.nullable(),
	})
	.meta({ id: 'Enrollment' })

export const apiProgress = z
	.object({
		userId: z.string(),
		courseSlug: z.string(),
		status: z.enum(ENROLLMENT_STATUSES),
		enrolledAt: instant,
		completedCount: z.number().int().nullable(),
		total: z.number().int().nullable(),
		percent: z.number().nullable(),
		passed: z.boolean(),
	})
	.meta({ id: 'Progress', description: 'A learner’s progress and result in one course, as their admin page shows it.' })

export const apiCertificate = z
	.object({
		id: z.string(),
		publicId: z.string(),
		userId: z.string(),
		courseSlug: z.string(),
		courseTitle: z.string(),
		recipientName: z.string(),
		issuedAt: instant,
		revokedAt: instant.nullable(),
		revokedReason: z.string().nullable(),
		verificationUrl: z.string(),
	})
	.meta({ id: 'Certificate' })

export const apiCertificateWithCredential = apiCertificate
	.extend({
		credential: z
			.object({
				'@context': z.array(z.string()),
				id: z.string(),
				type: z.array(z.string()),
				issuer: z.object({ id: z.string() }),
				validFrom: z.string(),
				credentialSubject: z.object({ type: z.array(z.string()) }),
				proof: z.object({
					type: z.string(),
					cryptosuite: z.string(),
					verificationMethod: z.string(),
					proofValue: z.string(),
				}),
			})
			.meta({ description: 'The signed Open Badges 3.0 credential (eddsa-rdfc-2022), as issued.' }),
	})
	.meta({ id: 'CertificateWithCredential' })

export const apiQuizAttempt = z
	.object({
		id: z.string(),
		userId: z.string(),
		courseSlug: z.string(),
		entrySlug: z.string(),
		number: z.number().int().meta({ description: 'The attempt’s number for this learner and quiz, from 1.' }),
		score: z.number().int().meta({ description: 'Percent, 0 to 100.' }),
		passed: z.boolean(),
		startedAt: instant,
		submittedAt: instant.nullable(),
		dueAt: instant.nullable().meta({ description: 'The quiz’s due date for the learner when submitted; null: none.' }),
		late: z.boolean(),
	})
	.meta({ id: 'QuizAttempt' })

export const apiSubmission = z
	.object({
		id: z.string(),
		userId: z.string(),
		courseSlug: z.string(),
		entrySlug: z.string(),
		number: z.number().int().meta({ description: 'The hand-in’s number for this learner and assignment, from 1.' }),
		status: z.enum(SUBMISSION_STATUSES).meta({
			description: '`submitted`: awaits grading; `graded`; `returned`: sent back for another hand-in.',
		}),
		textAnswer: z.string().nullable(),
		linkUrl: z.string().nullable(),
		submittedAt: instant,
		dueAt: instant.nullable(),
		late: z.boolean(),
		score: z.number().int().nullable().meta({ description: 'In the assignment’s points, 0 to `maxScore`.' }),
		maxScore: z.number().int().nullable(),
		passed: z.boolean().nullable(),
		feedback: z.string().nullable().meta({ description: 'The grader’s feedback to the learner.' }),
		gradedAt: instant.nullable(),
		gradedBy: z.string().nullable().meta({ description: 'The grader’s user id.' }),
	})
	.meta({ id: 'Submission', description: 'An assignment hand-in with its grade (null until graded).' })

const apiCourse = z
	.object({
		slug: z.string(),
		title: z.string(),
		summary: z.string(),
		status: z.enum(['draft', 'published', 'archived']),
		listed: z.boolean(),
		publishedAt: instant.nullable(),
		paid: z.boolean(),
		entryCount: z.number().int(),
		url: z.string().meta({ description: 'The course’s public page.' }),
		adminUrl: z.string().meta({ description: 'The course’s administration (dashboard, settings, learners).' }),
	})
	.meta({ id: 'Course' })

const pageOf = <T extends z.ZodType>(item: T, name: string) =>
	z
		.object({
			data: z.array(item),
			nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null at the end.' }),
		})
		.meta({ id: name })
// The platform's tenants (platform keys, decision 0087).
export const tenantListQuery = z
	.strictObject({ ...paging, status: z.enum(TENANT_STATUSES).optional(), updated_since: updatedSince })
	.meta({ id: 'TenantListQuery' })
export const apiTenant = z
	.object({
		id: z.string(),
		slug: z.string(),
		name: z.string(),
		status: z.enum(TENANT_STATUSES),
		customDomain: z.string().nullable(),
		customDomainLive: z.boolean().meta({ description: 'Whether the custom domain serves the site yet.' }),
		url: z.string().meta({ description: 'Where the site answers: its live custom domain, else its subdomain.' }),
		createdAt: instant,
		updatedAt: instant,
		suspendedAt: instant.nullable(),
	})
	.meta({ id: 'Tenant' })
export const tenantPage = pageOf(apiTenant, 'TenantPage')
export const createTenantBody = z
	.strictObject({
		slug: z.string().max(63).meta({ description: 'Its subdomain: lowercase letters, digits and inner hyphens.' }),
		name: z.string().max(120),
		customDomain: z.string().max(253).optional().meta({ description: 'Served once marked live at /admin/tenants.' }),
		adminEmail: z.string().max(254).meta({ description: 'Its first admin, invited as tenant_admin.' }),
	})
	.meta({ id: 'CreateTenantRequest' })
export const tenantStatusBody = z.strictObject({ status: z.enum(TENANT_STATUSES) }).meta({ id: 'TenantStatusRequest' })

export const userPage = pageOf(apiUser, 'UserPage')
export const enrollmentPage = pageOf(apiEnrollment, 'EnrollmentPage')
export const certificatePage = pageOf(apiCertificate, 'CertificatePage')
export const coursePage = pageOf(apiCourse, 'CoursePage')
export const quizAttemptPage = pageOf(apiQuizAttempt, 'QuizAttemptPage')
export const submissionPage = pageOf(apiSubmission, 'SubmissionPage')

export const createUserBody = z
	.strictObject({
		email: z.string().max(254),
		name: z.string().max(200).optional(),
		role: z.enum(['student', 'tenant_admin']).optional().meta({ description: 'Default student.' }),
		locale: z.enum(LOCALES).optional(),
		sendInvitation: z.boolean().optional().meta({
			description:
				'true: the person is also sent an invitation, whose link lets them choose a password. Default false: the account waits for a sign-in link or single sign-on.',
		}),
	})
	.meta({ id: 'CreateUserRequest' })

export const roleBody = z
	.strictObject({
		role: z.enum(INVITABLE_ROLES),
		course: slug.optional().meta({ description: 'For course_admin: a course they administer from now on.' }),
	})
	.meta({ id: 'ChangeRoleRequest' })

export const enrollBody = z.strictObject({ userId: id, course: slug }).meta({ id: 'EnrollRequest' })
export const revokeBody = z
	.strictObject({ reason: z.string().trim().min(1).max(500) })
	.meta({ id: 'RevokeCertificateRequest' })
export const emptyBody = z.strictObject({}).meta({ id: 'EmptyRequest' })

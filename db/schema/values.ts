// Allowed values, exactly as the interface specification names them. Both
// dialect schemas build their CHECK constraints from these lists.
export const TENANT_STATUSES = ['active', 'suspended', 'archived'] as const
export const ROLES = ['student', 'course_admin', 'tenant_admin', 'super_admin'] as const
export const INVITABLE_ROLES = ['student', 'course_admin', 'tenant_admin'] as const
export const ENROLLMENT_STATUSES = ['pending', 'active', 'completed', 'cancelled'] as const
export const TOKEN_TYPES = ['email_verify', 'password_reset', 'magic_link', 'email_change'] as const
/** An assignment submission's status (decision 0027): awaiting grading, returned for revision, graded. */
export const SUBMISSION_STATUSES = ['submitted', 'returned', 'graded'] as const
/** What a second chance gives (decision 0037): more attempts at a quiz, or an assignment open to a new hand-in. */
export const SECOND_CHANCE_KINDS = ['quiz_attempts', 'assignment_reopen'] as const
/**
 * The mails a learner can turn off one by one (decision 0047): a reminder after a spell of inactivity, a
 * reminder before a due date, and course staff's announcements. The same names key reminders_sent.
 */
export const REMINDER_KINDS = ['inactivity', 'due_soon', 'announcement'] as const
/**
 * The roles a SCIM group may give its members (decision 0070): never super_admin, which no tenant's
 * identity provider can grant.
 */
export const SCIM_GROUP_ROLES = ['course_admin', 'tenant_admin'] as const
/** What an API key may do (decision 0071): read, or read and write. */
export const API_KEY_SCOPES = ['read', 'read_write'] as const
/**
 * A tenant's identity provider (issue 48): OpenID Connect (decision 0069) or SAML 2.0 (decision 0077),
 * each kind's own columns nullable beside the shared ones, its rows told apart by kind.
 */
export const SSO_PROVIDER_KINDS = ['oidc', 'saml'] as const
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'zh'] as const
export const DEFAULT_LOCALE = 'en'

export type TenantStatus = (typeof TENANT_STATUSES)[number]
export type Role = (typeof ROLES)[number]
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number]
export type TokenType = (typeof TOKEN_TYPES)[number]
export type Locale = (typeof LOCALES)[number]
export type SecondChanceKind = (typeof SECOND_CHANCE_KINDS)[number]
export type SsoProviderKind = (typeof SSO_PROVIDER_KINDS)[number]
/** The roles a provider's claim may give (never super_admin). */
export type SsoMappedRole = 'course_admin' | 'tenant_admin'
export type ReminderKind = (typeof REMINDER_KINDS)[number]
export type ScimGroupRole = (typeof SCIM_GROUP_ROLES)[number]
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number]

/** `'a', 'b'` for use inside an SQL IN (...) list; values are constants, never input. */
export function sqlList(values: readonly string[]) {
	return values.map((v) => `'${v}'`).join(', ')
}

/** The events outgoing webhooks report (decision 0072; docs/webhooks.md shows each payload). */
export const WEBHOOK_EVENT_TYPES = [
	'user.created',
	'user.deactivated',
	'enrollment.created',
	'enrollment.removed',
	'entry.completed',
	'course.completed',
	'course.passed',
	'certificate.issued',
	'certificate.revoked',
	'submission.graded',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

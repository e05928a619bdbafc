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
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'zh'] as const
export const DEFAULT_LOCALE = 'en'

export type TenantStatus = (typeof TENANT_STATUSES)[number]
export type Role = (typeof ROLES)[number]
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number]
export type TokenType = (typeof TOKEN_TYPES)[number]
export type Locale = (typeof LOCALES)[number]
export type SecondChanceKind = (typeof SECOND_CHANCE_KINDS)[number]
export type ReminderKind = (typeof REMINDER_KINDS)[number]
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number]

/** `'a', 'b'` for use inside an SQL IN (...) list; values are constants, never input. */
export function sqlList(values: readonly string[]) {
	return values.map((v) => `'${v}'`).join(', ')
}

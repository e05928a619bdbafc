import { z } from 'zod'

// Messages are catalogue keys (app/i18n/common): forms show them in the page's locale.

// Among the most used passwords in public breach corpora; refused for new passwords.
const COMMON = new Set(
	'123456 123456789 12345678 password qwerty123 qwerty 1234567890 1234567 password1 12345 iloveyou 000000 123123 abc123 qwertyuiop 654321 111111 123321 666666 987654321 password123 1q2w3e4r 1qaz2wsx zaq12wsx 1q2w3e4r5t qwerty12 dragon sunshine princess letmein monkey football baseball welcome welcome1 admin admin123 administrator login master shadow superman trustno1 passw0rd p@ssw0rd p@ssword hello123 freedom whatever michael jennifer charlie jordan23 starwars computer internet iloveyou1 changeme changeme123 secret secret123 test1234 testtest 11111111 00000000 12341234 asdfghjk asdfasdf zxcvbnm zxcvbnm123 q1w2e3r4 aa123456 abcd1234 a1b2c3d4 google mustang access flower hottie loveme batman pokemon naruto soccer hockey killer pepper ginger summer2024 winter2024 spring2025 autumn2025 summer2025 password2024 password2025 password2026 letmein123 qazwsxedc 1234qwer'.split(
		' ',
	),
)

function isCommonPassword(password: string) {
	return COMMON.has(password.toLowerCase())
}

export const emailField = z
	.string({ error: 'common.validation.emailRequired' })
	.trim()
	.toLowerCase()
	.max(254, 'common.validation.max254')
	.pipe(z.email('common.validation.emailInvalid'))

/** An existing password: any length we are willing to hash. */
export const passwordField = z
	.string({ error: 'common.validation.passwordRequired' })
	.max(1024, 'common.validation.passwordTooLong')

export const newPasswordField = z
	.string({ error: 'common.validation.newPasswordRequired' })
	.min(8, 'common.validation.min8')
	.max(128, 'common.validation.max128')
	.refine((p) => !isCommonPassword(p), 'common.validation.passwordCommon')

/** Text without NUL (U+0000): PostgreSQL cannot store or compare it, so both databases refuse it at the boundary. */
// eslint-disable-next-line no-control-regex -- the control character is what this refuses
export const NO_NUL = /^[^\u0000]*$/

/** A stored row's id as a form sends it back (hidden fields, buttons): looked up as sent, so never with a NUL. */
export const recordId = z.string().max(100).regex(NO_NUL)

/**
 * Text shown to other people (names): no control characters and no
 * bidirectional overrides, embeddings, isolates or marks, which make a name
 * display as something else (`\u202egnp.exe`).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
export const DISPLAY_TEXT = /^[^\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/

export const nameField = z
	.string({ error: 'common.validation.nameRequired' })
	.trim()
	.min(1, 'common.validation.nameRequired')
	.max(100, 'common.validation.max100')
	.regex(DISPLAY_TEXT, 'common.validation.controlCharacters')

/**
 * A page number from a query string: a whole number from 1 to 10,000, else 1.
 * `Number()` alone lets `1e309` (Infinity), `1.5` and `-0` through to the database.
 */
export const pageParam = z.coerce.number().int().min(1).max(10_000).catch(1)

/** A date or instant from a query string that both databases can store (years 1970 to 9999), else undefined. */
export function instantParam(format: 'date' | 'datetime') {
	return (format === 'date' ? z.iso.date() : z.iso.datetime())
		.refine((v) => {
			const time = new Date(format === 'date' ? `${v}T00:00:00Z` : v).getTime()
			return time >= 0 && time < Date.UTC(10_000, 0, 1)
		})
		.optional()
		.catch(undefined)
}

/** A tenant's slug, its subdomain: one DNS label (the tenants page and the platform API, decision 0087). */
export const tenantSlugField = z
	.string({ message: 'admin.tenants.errors.slugRequired' })
	.trim()
	.toLowerCase()
	.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'admin.tenants.errors.slugFormat')

/** A tenant's name as its pages and mails show it. */
export const tenantNameField = z
	.string({ message: 'admin.tenants.errors.nameRequired' })
	.trim()
	.min(1, 'admin.tenants.errors.nameRequired')
	.max(120, 'admin.tenants.errors.nameTooLong')
	.regex(DISPLAY_TEXT, 'common.validation.controlCharacters')

/** A tenant's custom domain: a host name of two labels or more. */
export const customDomainField = z
	.string()
	.trim()
	.toLowerCase()
	.regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'admin.tenants.errors.domainFormat')

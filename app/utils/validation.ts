import { z } from 'zod'

// Among the most used passwords in public breach corpora; refused for new passwords.
const COMMON = new Set(
	'123456 123456789 12345678 password qwerty123 qwerty 1234567890 1234567 password1 12345 iloveyou 000000 123123 abc123 qwertyuiop 654321 111111 123321 666666 987654321 password123 1q2w3e4r 1qaz2wsx zaq12wsx 1q2w3e4r5t qwerty12 dragon sunshine princess letmein monkey football baseball welcome welcome1 admin admin123 administrator login master shadow superman trustno1 passw0rd p@ssw0rd p@ssword hello123 freedom whatever michael jennifer charlie jordan23 starwars computer internet iloveyou1 changeme changeme123 secret secret123 test1234 testtest 11111111 00000000 12341234 asdfghjk asdfasdf zxcvbnm zxcvbnm123 q1w2e3r4 aa123456 abcd1234 a1b2c3d4 google mustang access flower hottie loveme batman pokemon naruto soccer hockey killer pepper ginger summer2024 winter2024 spring2025 autumn2025 summer2025 password2024 password2025 password2026 letmein123 qazwsxedc 1234qwer'.split(' '),
)

export function isCommonPassword(password: string) {
	return COMMON.has(password.toLowerCase())
}

export const emailField = z
	.string({ error: 'Enter your email address' })
	.trim()
	.toLowerCase()
	.max(254, 'Use at most 254 characters')
	.pipe(z.email('Enter a valid email address'))

/** An existing password: any length we are willing to hash. */
export const passwordField = z.string({ error: 'Enter your password' }).max(1024, 'That password is too long')

export const newPasswordField = z
	.string({ error: 'Choose a password' })
	.min(8, 'Use at least 8 characters')
	.max(128, 'Use at most 128 characters')
	.refine((p) => !isCommonPassword(p), 'This password is too common. Choose another one.')

/** Text without NUL (U+0000): PostgreSQL cannot store or compare it, so both databases refuse it at the boundary. */
export const NO_NUL = /^[^\u0000]*$/

export const nameField = z
	.string({ error: 'Enter your name' })
	.trim()
	.min(1, 'Enter your name')
	.max(100, 'Use at most 100 characters')
	.regex(NO_NUL, 'Remove the control characters')

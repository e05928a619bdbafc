import { describe, expect, it } from 'vitest'
import { ACCOUNT_EMAILS } from '#app/accounts/emails.ts'
import { composeEmail } from '#app/platform/emails.server.ts'
import { REMINDER_EMAILS } from './emails.ts'
import { readUnsubscribeToken, UNSUBSCRIBE_TOKEN_DAYS, unsubscribeToken } from './unsubscribe.server.ts'

const SECRET = 'a-test-secret-of-at-least-thirty-two-chars'
const NOW = new Date('2026-11-26T05:00:00Z')
const claim = { userId: 'user-1', kind: 'inactivity' as const }

describe('unsubscribe tokens (decision 0047)', () => {
	const token = unsubscribeToken(SECRET, 'tenant-a', claim, NOW)

	it('reads back on its tenant until it expires', () => {
		expect(readUnsubscribeToken(SECRET, 'tenant-a', token, NOW)).toEqual(claim)
		const lastDay = new Date(NOW.getTime() + (UNSUBSCRIBE_TOKEN_DAYS - 1) * 86_400_000)
		expect(readUnsubscribeToken(SECRET, 'tenant-a', token, lastDay)).toEqual(claim)
		const after = new Date(NOW.getTime() + (UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000)
		expect(readUnsubscribeToken(SECRET, 'tenant-a', token, after)).toBeNull()
	})

	it('names nobody on another tenant, under another secret, or altered in any part', () => {
		expect(readUnsubscribeToken(SECRET, 'tenant-b', token, NOW)).toBeNull()
		expect(readUnsubscribeToken(`${SECRET}x`, 'tenant-a', token, NOW)).toBeNull()
		const [user, kind, expires, mac] = token.split('.')
		for (const altered of [
			`user-2.${kind}.${expires}.${mac}`,
			`${user}.announcement.${expires}.${mac}`,
			`${user}.${kind}.${(parseInt(expires, 36) + 1).toString(36)}.${mac}`,
			`${user}.${kind}.${expires}.${mac.slice(1)}`,
			`${token}.x`,
			token.toUpperCase(),
			'',
		])
			expect(readUnsubscribeToken(SECRET, 'tenant-a', altered, NOW), altered).toBeNull()
	})

	it('a reminder mail carries RFC 8058 headers and the same link in its text', () => {
		const url = `https://learn.acme.test/learn/unsubscribe/${token}`
		const mail = composeEmail(REMINDER_EMAILS, {
			kind: 'reminder_inactivity',
			to: 'a@b.test',
			locale: 'de',
			site: 'Acme',
			url: 'https://learn.acme.test/learn/course/c',
			values: { course: 'Kurs', days: '7' },
			unsubscribe: url,
		})
		expect(mail.headers).toEqual({
			'List-Unsubscribe': `<${url}>`,
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
		})
		expect(mail.text).toContain(`Diese Erinnerungen abbestellen: ${url}`)
		// Account mail has none.
		const reset = composeEmail(ACCOUNT_EMAILS, {
			kind: 'password_reset',
			to: 'a@b.test',
			locale: 'en',
			site: 'Acme',
			url: 'https://x',
		})
		expect(reset.headers).toBeUndefined()
	})
})

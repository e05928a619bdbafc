import { createHmac, timingSafeEqual } from 'node:crypto'
import { REMINDER_KINDS, type ReminderKind } from '#db/schema/values.ts'

/*
 * The one-click unsubscribe token of a reminder mail (RFC 8058; decision 0047): who (user), what
 * (kind) and until when, signed with AUTH_SECRET and bound to the tenant without naming it, so the
 * same token on another tenant's host fails its signature. Stateless: nothing to store per mail, and
 * a token is never a credential for anything but turning that one kind off for that one person.
 */

/** How long a mail's unsubscribe link works: a mail read months later still unsubscribes. */
export const UNSUBSCRIBE_TOKEN_DAYS = 90
const DAY_MS = 86_400_000

export interface UnsubscribeClaim {
	userId: string
	kind: ReminderKind
}

function mac(secret: string, tenantId: string, body: string) {
	return createHmac('sha256', secret).update(`unsubscribe\u0000${tenantId}\u0000${body}`).digest('base64url')
}

/** A token for the person's kind, valid UNSUBSCRIBE_TOKEN_DAYS from `now`. */
export function unsubscribeToken(secret: string, tenantId: string, claim: UnsubscribeClaim, now = new Date()) {
	const expires = Math.floor(now.getTime() / DAY_MS) + UNSUBSCRIBE_TOKEN_DAYS
	const body = `${claim.userId}.${claim.kind}.${expires.toString(36)}`
	return `${body}.${mac(secret, tenantId, body)}`
}

/** The claim of a token signed for this tenant and not expired; null for anything else. */
export function readUnsubscribeToken(secret: string, tenantId: string, token: string, now = new Date()) {
	const parts = token.split('.')
	if (parts.length !== 4) return null
	const [userId, kind, expires, given] = parts
	const expected = Buffer.from(mac(secret, tenantId, `${userId}.${kind}.${expires}`))
	const actual = Buffer.from(given)
	if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null
	if (!(REMINDER_KINDS as readonly string[]).includes(kind)) return null
	if (!/^[0-9a-z]{1,8}$/.test(expires) || parseInt(expires, 36) * DAY_MS < now.getTime()) return null
	return { userId, kind: kind as ReminderKind }
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { RequestContext } from '#app/context.ts'
import '#app/i18n/catalogues.server.ts'
import { i18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { findCalendarFeed, findCalendarFeedByHash, replaceCalendarFeed, type CalendarFeed } from '#db/due-dates.ts'
import type { Scope } from '#db/learning.ts'
import { findUserById } from '#db/users.ts'
import { siteName } from '../content/site.server.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { dueItemsFor } from './due-dates.server.ts'

// A learner's private iCalendar feed of their due dates (decision 0045). The URL carries a token
// that is an HMAC of the feed row's random nonce under AUTH_SECRET: the database keeps only the
// token's SHA-256 (a copy of the database opens no feed), while the account page can show the
// same link again. A new link replaces the row, so the old token matches nothing.

const TOKEN = /^[A-Za-z0-9_-]{43}$/
const FEED_PATH = /^([A-Za-z0-9_-]{43})\.ics$/

function tokenOf(secret: string, feed: Pick<CalendarFeed, 'tenant_id' | 'user_id' | 'nonce'>) {
	return createHmac('sha256', secret)
		.update(`calendar-feed\u0000${feed.tenant_id}\u0000${feed.user_id}\u0000${feed.nonce}`)
		.digest('base64url')
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

const feedUrl = (ctx: Pick<RequestContext, 'origin'>, token: string) => absoluteUrl(ctx, `/learn/calendar/${token}.ics`)

/** The learner's feed address on this host, or null before they asked for one. */
export async function calendarLink(ctx: RequestContext, scope: Scope) {
	const feed = await findCalendarFeed(ctx.db, scope)
	return feed ? feedUrl(ctx, tokenOf(ctx.env.AUTH_SECRET, feed)) : null
}

/** A new address for the learner's feed; the previous one stops working in the same write. */
export async function newCalendarLink(ctx: RequestContext, scope: Scope) {
	const nonce = randomBytes(24).toString('base64url')
	const token = tokenOf(ctx.env.AUTH_SECRET, { tenant_id: scope.tenantId, user_id: scope.userId, nonce })
	await replaceCalendarFeed(ctx.db, scope, nonce, hashOf(token))
	return feedUrl(ctx, token)
}

/**
 * The learner whose feed the last path segment (`<token>.ics`) opens on this tenant, else null:
 * any other spelling, an unknown or replaced token, another tenant's token, a deactivated learner.
 */
export async function feedOwner(ctx: RequestContext, file: string) {
	const token = FEED_PATH.exec(file)?.[1]
	if (!token || !TOKEN.test(token) || !ctx.tenant) return null
	const feed = await findCalendarFeedByHash(ctx.db, ctx.tenant.id, hashOf(token))
	if (!feed) return null
	// The row matched by hash; the HMAC says it is still this secret's token (a rotated AUTH_SECRET ends every feed).
	const expected = Buffer.from(tokenOf(ctx.env.AUTH_SECRET, feed))
	if (!timingSafeEqual(expected, Buffer.from(token))) return null
	const user = await findUserById(ctx.db, feed.user_id)
	if (!user || user.deactivated_at || user.tenant_id !== ctx.tenant.id) return null
	return user
}

/** The feed's body: one VEVENT per due entry of the learner's active courses, each with a reminder a day before. */
export async function calendarBody(ctx: RequestContext, user: NonNullable<Awaited<ReturnType<typeof feedOwner>>>) {
	const t = i18n(user.locale)
	const site = await siteName(ctx, user.locale)
	const items = await dueItemsFor({ ...ctx, locale: user.locale }, user.tenant_id!, user.id)
	const host = new URL(ctx.origin).hostname
	// Loaded on first use: only a calendar app's fetch of a feed needs it.
	const { default: ical, ICalAlarmType } = await import('ical-generator')
	const calendar = ical({
		name: `${t.m.learning.due.title} · ${site}`,
		prodId: { company: 'Open LMS', product: 'due-dates', language: user.locale.toUpperCase() },
		ttl: 60 * 60,
	})
	const stamp = new Date()
	for (const item of items) {
		const path = localePath(user.locale, `/learn/course/${item.courseSlug}/entry/${item.entrySlug}`)
		const event = calendar.createEvent({
			// Stable across fetches and new links: the same learner's same entry is the same event.
			id: `${hashOf(`${user.tenant_id}/${user.id}/${item.courseSlug}/${item.entrySlug}`).slice(0, 32)}@${host}`,
			stamp,
			start: item.dueAt,
			summary: `${item.entryTitle} · ${item.courseTitle}`,
			url: absoluteUrl(ctx, path),
			description: absoluteUrl(ctx, path),
		})
		if (!item.done)
			event.createAlarm({
				type: ICalAlarmType.display,
				trigger: 24 * 60 * 60,
				description: `${item.entryTitle} · ${t.m.learning.due.soon}`,
			})
	}
	return calendar.toString()
}

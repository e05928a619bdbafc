import { getRequestContext } from '#app/context.ts'
import { calendarBody, feedOwner } from '#app/learning/calendar-feed.server.ts'
import type { Route } from './+types/learn.calendar.$file.ts'

/**
 * A learner's due dates as an iCalendar feed (RFC 5545, decision 0045), for a calendar app that
 * subscribes with no session: the token in `<token>.ics` is the only key. Every token that opens
 * nothing on this host gets the same bare 404. Never stored by a shared cache, never indexed, no
 * cookie.
 */
const PRIVATE = {
	'cache-control': 'private, no-cache, max-age=0',
	'x-robots-tag': 'noindex, nofollow',
	'referrer-policy': 'no-referrer',
}

export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const user = await feedOwner(ctx, params.file)
	if (!user)
		return new Response('Not found\n', {
			status: 404,
			headers: { ...PRIVATE, 'content-type': 'text/plain; charset=utf-8' },
		})
	return new Response(await calendarBody(ctx, user), {
		headers: {
			...PRIVATE,
			'content-type': 'text/calendar; charset=utf-8',
			'content-disposition': 'inline; filename="due-dates.ics"',
		},
	})
}

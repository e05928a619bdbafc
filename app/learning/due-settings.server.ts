import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { CurrentSession } from '#app/accounts/session.server.ts'
import { limitForm } from '#app/platform/forms.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import { calendarLink, newCalendarLink } from './calendar-feed.server.ts'
import { chooseTimeZone, learnerTimeZone, takeDeviceTimeZone } from './due-dates.server.ts'
import { isTimeZone, supportedTimeZones } from './due-dates.ts'

// The account page's "due dates and calendar" section (decision 0045): the learner's time zone and
// their calendar feed's link. Its own intents, read before the page's other forms.

const DUE_SETTINGS_INTENTS = ['time-zone', 'device-time-zone', 'calendar-link'] as const

const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('time-zone'),
		timeZone: z
			.string('accounts.dueSettings.unknownTimeZone')
			.max(64, 'accounts.dueSettings.unknownTimeZone')
			.refine(isTimeZone, 'accounts.dueSettings.unknownTimeZone'),
	}),
	// The device's zone, sent by the dashboard's script while the learner has chosen none (issue 52).
	z.object({
		intent: z.literal('device-time-zone'),
		timeZone: z.string().max(64).refine(isTimeZone, 'accounts.dueSettings.unknownTimeZone'),
	}),
	z.object({ intent: z.literal('calendar-link') }),
])

/** What the section shows: the zone in force, the zones to pick from, the feed's address (null before one was made). */
export async function dueSettingsFor(ctx: RequestContext, session: CurrentSession) {
	const scope = { tenantId: session.user.tenant_id ?? '', userId: session.user.id }
	if (!session.user.tenant_id) return null
	const [timeZone, link] = await Promise.all([learnerTimeZone(ctx, scope), calendarLink(ctx, scope)])
	return { timeZone, zones: supportedTimeZones(), calendarUrl: link }
}

/** The section's action; null when the post is another form's (the page's own schema reads it). */
export async function dueSettingsAction(ctx: RequestContext, session: CurrentSession, form: FormData) {
	const intent = form.get('intent')
	if (!DUE_SETTINGS_INTENTS.includes(intent as never)) return null
	const submission = parseWithZod(form, { schema })
	const tenantId = session.user.tenant_id
	const limited = await limitForm(ctx, 'dueSettings', session.user.id, submission)
	if (limited) return limited
	if (submission.status !== 'success' || !tenantId) return data({ result: submission.reply() }, { status: 400 })
	const scope = { tenantId, userId: session.user.id }
	if (submission.value.intent === 'device-time-zone')
		// Answered with data, not a redirect: a script's fetcher sends it, and the page it is on stays.
		return { deviceZone: await takeDeviceTimeZone(ctx, scope, submission.value.timeZone) }
	if (submission.value.intent === 'time-zone') {
		await chooseTimeZone(ctx, scope, submission.value.timeZone)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'timeZoneSaved')))
	}
	await newCalendarLink(ctx, scope)
	return redirect(localePath(ctx.locale, withNotice('/learn/account', 'calendarReplaced')))
}

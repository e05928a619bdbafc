import { redirect } from 'react-router'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { CurrentSession } from '#app/accounts/session.server.ts'
import { withNotice } from '#app/platform/notices.ts'
import { calendarLink, newCalendarLink } from './calendar-feed.server.ts'
import { chooseTimeZone, learnerTimeZone, takeDeviceTimeZone } from './due-dates.server.ts'
import { isTimeZone, supportedTimeZones } from './due-dates.ts'

// The account page's "due dates and calendar" section (decision 0045): the learner's time zone and
// their calendar feed's link. Its forms are options of the page's schema (one union on `intent`,
// decision 0020), counted against the `dueSettings` limit.

/** The section's forms, for the account page's `z.discriminatedUnion('intent', …)`. */
export const dueSettingsForms = [
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
] as const

export type DueSettingsInput = z.infer<(typeof dueSettingsForms)[number]>

/** What the section shows: the zone in force, the zones to pick from, the feed's address (null before one was made). */
export async function dueSettingsFor(ctx: RequestContext, session: CurrentSession) {
	const scope = { tenantId: session.user.tenant_id ?? '', userId: session.user.id }
	if (!session.user.tenant_id) return null
	const [timeZone, link] = await Promise.all([learnerTimeZone(ctx, scope), calendarLink(ctx, scope)])
	return { timeZone, zones: supportedTimeZones(), calendarUrl: link }
}

/** The section's action for a valid post of its forms; null for an account with no tenant (no courses, no due dates). */
export async function dueSettingsAction(ctx: RequestContext, session: CurrentSession, input: DueSettingsInput) {
	const tenantId = session.user.tenant_id
	if (!tenantId) return null
	const scope = { tenantId, userId: session.user.id }
	if (input.intent === 'device-time-zone')
		// Answered with data, not a redirect: a script's fetcher sends it, and the page it is on stays.
		return { deviceZone: await takeDeviceTimeZone(ctx, scope, input.timeZone) }
	if (input.intent === 'time-zone') {
		await chooseTimeZone(ctx, scope, input.timeZone)
		return redirect(localePath(ctx.locale, withNotice('/learn/account', 'timeZoneSaved')))
	}
	await newCalendarLink(ctx, scope)
	return redirect(localePath(ctx.locale, withNotice('/learn/account', 'calendarReplaced')))
}

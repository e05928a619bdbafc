// When an entry is due for one learner, and how that stands now (decision 0045). Pure, so the
// pages, the hand-in's transaction, the calendar feed and the reminders all judge it one way.
import type { Due } from '#app/content/content.ts'
import { formatter } from '#app/i18n/format.ts'
import type { Tenant } from '#db/tenants.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** "Due soon": due within this many days from now (and not done). */
const DUE_SOON_DAYS = 7

export type DueState = 'done' | 'overdue' | 'soon' | 'later'

/**
 * The instant an entry is due for a learner: a staff extension wins; else the content's instant;
 * else `daysAfterEnrollment` whole days (24 h each) after the enrollment's `enrolled_at`. Null: not due.
 */
export function dueAtFor(due: Due | undefined, enrolledAt: Date, extension: Date | null = null): Date | null {
	if (extension) return extension
	if (!due) return null
	if ('at' in due) return new Date(due.at)
	return new Date(enrolledAt.getTime() + due.daysAfterEnrollment * DAY_MS)
}

export function dueState(dueAt: Date, done: boolean, now: Date): DueState {
	if (done) return 'done'
	if (dueAt.getTime() < now.getTime()) return 'overdue'
	return dueAt.getTime() - now.getTime() <= DUE_SOON_DAYS * DAY_MS ? 'soon' : 'later'
}

/**
 * A quiz shows late to staff when the score that counts (the best) came late: no attempt on time
 * reached it (decision 0061). Each attempt's `late` is stored when submitted, as a hand-in's.
 */
export function bestAttemptLate(attempts: readonly { score: number; late: boolean | null }[]) {
	const best = Math.max(...attempts.map((a) => a.score))
	return attempts.length > 0 && !attempts.some((a) => a.score === best && !a.late)
}

/**
 * An IANA time zone name as written (`Europe/Paris`, `UTC`) that this runtime's Intl knows, else
 * false: case variants and offsets are refused, so one zone is stored one way.
 */
export function isTimeZone(name: string) {
	if (!/^[A-Z][A-Za-z_+-]*(\/[A-Z][A-Za-z0-9_+-]*){0,2}$/.test(name) || name.length > 64) return false
	try {
		new Intl.DateTimeFormat('en', { timeZone: name })
		return true
	} catch {
		return false
	}
}

let zones: string[] | null = null
/** The zones a learner may pick: the runtime's IANA list, with UTC first. */
export function supportedTimeZones(): string[] {
	zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]
	return zones
}

/**
 * The wall-clock time `local` (`YYYY-MM-DDTHH:MM`, a datetime-local field) in `timeZone`, as an
 * instant; null when it is not such a time. Staff type an extension in the learner's zone.
 */
export function instantInZone(local: string, timeZone: string): Date | null {
	const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
	if (!m) return null
	const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
	const asUtc = Date.UTC(y, mo - 1, d, h, mi)
	if (new Date(asUtc).getUTCDate() !== d || h > 23 || mi > 59) return null
	// The zone's offset at that moment, applied twice to settle across a daylight-saving change.
	let guess = asUtc - offsetMs(asUtc, timeZone)
	guess = asUtc - offsetMs(guess, timeZone)
	return new Date(guess)
}

function offsetMs(at: number, timeZone: string) {
	const parts = formatter(
		`wall|${timeZone}`,
		() =>
			new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				second: '2-digit',
			}),
	).formatToParts(new Date(at))
	const n = (type: string) => Number(parts.find((p) => p.type === type)?.value)
	const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'))
	return wall - Math.floor(at / 1000) * 1000
}

/** An instant as the zone's wall clock to the second, `YYYY-MM-DD HH:MM:SS` (a date every spreadsheet reads). */
export function wallClockInZone(at: Date, timeZone: string) {
	const shifted = new Date(at.getTime() + offsetMs(at.getTime(), timeZone))
	return shifted.toISOString().slice(0, 19).replace('T', ' ')
}

/** An instant as a datetime-local value in the zone (the extension form's default). */
export function localInZone(at: Date, timeZone: string) {
	return wallClockInZone(at, timeZone).slice(0, 16).replace(' ', 'T')
}

/** The tenant's default zone: `timeZone` in its feature flags when it is a known IANA name, else UTC. */
export function tenantTimeZone(tenant: Pick<Tenant, 'feature_flags_json'> | null) {
	const zone = (tenant?.feature_flags_json as { timeZone?: unknown } | null)?.timeZone
	return typeof zone === 'string' && isTimeZone(zone) ? zone : 'UTC'
}

// Building an Intl formatter costs far more than using one (a due line built one per line: 4.9 % of
// a course home's CPU, issue 47), and pages format in a handful of locales, styles and zones. Kept by
// key, least recently used first out: a learner's zone is one of some 400, so the keys are bounded
// only by that product.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()
const MAX_FORMATTERS = 256

/** The formatter stored under `key`, made by `make` the first time (the key names everything `make` uses). */
export function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
	let f = formatters.get(key) as T | undefined
	if (f) formatters.delete(key)
	else f = make()
	formatters.set(key, f)
	if (formatters.size > MAX_FORMATTERS) formatters.delete(formatters.keys().next().value!)
	return f
}

/** A price in minor units (the content's `price`). */
export function formatPrice(p: { amount: number; currency: string }, locale: string) {
	return formatter(
		`price|${locale}|${p.currency}`,
		() => new Intl.NumberFormat(locale, { style: 'currency', currency: p.currency }),
	).format(p.amount / 100)
}

export function formatMinutes(minutes: number, locale: string) {
	return formatter(
		`minutes|${locale}`,
		() => new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }),
	).format(minutes)
}

/**
 * An instant in `timeZone` (UTC unless said), naming the zone: "Nov 28, 2026, 8:37 PM UTC", "9:00 AM
 * PST", "09:00 GMT+1". dateStyle medium and timeStyle short spelled out, since Intl refuses
 * timeZoneName beside dateStyle; a time shown without its zone is read in the reader's (issue 52).
 */
export function formatInstant(at: Date, locale: string, timeZone = 'UTC') {
	return formatter(
		`instant|${locale}|${timeZone}`,
		() =>
			new Intl.DateTimeFormat(locale, {
				year: 'numeric',
				month: 'short',
				day: 'numeric',
				hour: 'numeric',
				minute: '2-digit',
				timeZoneName: 'short',
				timeZone,
			}),
	).format(at)
}

export const formatDate = (iso: string, locale: string) => formatInstant(new Date(iso), locale)

/** A calendar day in UTC, written out (a certificate's date: the time of day says nothing there). */
export function formatDay(iso: string, locale: string) {
	return formatter(
		`day|${locale}`,
		() => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
	).format(new Date(iso))
}

export function formatNumber(n: number, locale: string) {
	return formatter(`number|${locale}`, () => new Intl.NumberFormat(locale)).format(n)
}

/** A whole percentage (0 to 100) in the locale's style: `75 %` in French, `75%` in English. */
export function formatPercent(percent: number, locale: string) {
	return formatter(
		`percent|${locale}`,
		() => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }),
	).format(percent / 100)
}

/** A file size in the locale's style, in the largest unit that keeps it at 1 or more (`2.5 MB`, `820 kB`). */
export function formatBytes(bytes: number, locale: string) {
	const [unit, size] =
		bytes >= 1_000_000
			? (['megabyte', bytes / 1_000_000] as const)
			: bytes >= 1_000
				? (['kilobyte', bytes / 1_000] as const)
				: (['byte', bytes] as const)
	return formatter(
		`bytes|${unit}|${locale}`,
		// "13 bytes" rather than the short form's "13 byte"; "2.5 MB" rather than "2.5 megabytes".
		() =>
			new Intl.NumberFormat(locale, {
				style: 'unit',
				unit,
				unitDisplay: unit === 'byte' ? 'long' : 'short',
				maximumFractionDigits: 1,
			}),
	).format(size)
}

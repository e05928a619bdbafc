// A course's entries in reading order, across its modules: what locks, progress, results and
// reports walk. Pure, so every learning service may use it without importing another's I/O.
import type { Course, Due, Entry } from '#app/content/content.ts'
import type { Locale } from '#db/schema/values.ts'

export interface FlatEntry {
	slug: string
	type: Entry['type']
	title: string
	estimatedMinutes: number | null
	/** When the entry is due (decision 0045); absent: not due. */
	due?: Due
	moduleSlug: string
	moduleTitle: string
	/** The locales the entry's and its module's titles were served in (a service that omits them: the course's). */
	locale: Locale
	moduleLocale: Locale
	/** Position in the whole course (prev/next crosses modules). */
	index: number
}

/**
 * Each course document's list, made once: the content cache hands every request the same document,
 * and a page walks a course's entries several times (locks, progress, results, due lines), the
 * dashboard for every enrollment. Shared, so read-only.
 */
const flattened = new WeakMap<Course, readonly FlatEntry[]>()

export function flattenEntries(course: Course): readonly FlatEntry[] {
	let entries = flattened.get(course)
	if (!entries) {
		entries = course.modules
			.flatMap((m) =>
				m.entries.map((e) => ({
					...e,
					locale: e.locale ?? course.locale,
					moduleSlug: m.slug,
					moduleTitle: m.title,
					moduleLocale: m.locale ?? course.locale,
				})),
			)
			.map((e, index) => Object.freeze({ ...e, index }))
		flattened.set(course, Object.freeze(entries))
	}
	return entries
}

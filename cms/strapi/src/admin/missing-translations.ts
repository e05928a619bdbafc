// What a course's translation still lacks of its English version (issue 51, "translations without
// surprises"), in the order of the outline: each module of en with no module of the same slug in the
// translation (named whole), and each entry of en whose module has no entry of its slug, or one with
// no title. The translation's modules and entries take en's slugs by place when saved (0082); the
// content API serves what a translation lacks from en, so learners read these in English.
// Plain data in and out: translation-status.jsx shows it, tests/authoring/editor-model.test.ts reads it.

type Item = { slug?: unknown; title?: unknown; entries?: unknown }
type Version = { modules?: unknown } | null | undefined
export type Missing = { module: unknown; entry?: unknown }

const list = (v: unknown): Item[] =>
	Array.isArray(v) ? v.filter((x): x is Item => Boolean(x) && typeof x === 'object') : []
const titled = (x: Item | undefined) => typeof x?.title === 'string' && x.title.trim() !== ''

/** `[{ module, entry? }]`: en's titles of what `translation` (null: not saved yet) lacks of `source`. */
export function missingTranslations(source: Version, translation: Version): Missing[] {
	const theirs = new Map(list(translation?.modules).map((m) => [m.slug, m]))
	const missing: Missing[] = []
	for (const module of list(source?.modules)) {
		const own = theirs.get(module.slug)
		if (!own) {
			missing.push({ module: module.title })
			continue
		}
		const entries = new Map(list(own.entries).map((e) => [e.slug, e]))
		for (const entry of list(module.entries))
			if (!titled(entries.get(entry.slug))) missing.push({ module: module.title, entry: entry.title })
	}
	return missing
}

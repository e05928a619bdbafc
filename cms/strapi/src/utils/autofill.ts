/**
 * The ids a teacher never types (decision 0073): a course's slug and its modules' and entries'
 * slugs come from their titles, a question's key is q1, q2…, an option's a, b…, each made unique
 * where it must be (entries across the course, since an entry's URL is its slug). Only what is
 * empty is filled: an id once stored never changes (learners' progress and answers refer to it).
 * Kinds follow the blocks filled in: an entry with quiz settings is a quiz, one with assignment
 * settings an assignment; a question with choices is multiple choice, one with accepted answers a
 * short answer, one with only "the statement is true" set a true/false question.
 * Runs on the data of a course's create or update, before Strapi validates it.
 */

/** The parts of a course's data this reads and fills: what the form sent, so any field may be anything. */
type Option = { key?: unknown }
type Question = { key?: unknown; type?: unknown; options?: unknown; acceptedAnswers?: unknown; correct?: unknown }
type Entry = { slug?: unknown; title?: unknown; type?: unknown; quiz?: unknown; assignment?: unknown }
type Module = { slug?: unknown; title?: unknown; entries?: unknown }
export type CourseData = { slug?: unknown; title?: unknown; modules?: unknown }

const blank = (v: unknown): boolean => typeof v !== 'string' || v.trim() === ''

export function slugify(text: unknown): string {
	return String(text ?? '')
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/, '')
}

/** `base`, or base-2, base-3… when taken; recorded as taken. */
function unique(base: string, taken: Set<unknown>): string {
	let out = base
	for (let n = 2; taken.has(out); n++) out = `${base}-${n}`
	taken.add(out)
	return out
}

const letters = 'abcdefghijklmnopqrstuvwxyz'
const optionKey = (n: number) => (n < letters.length ? letters[n] : `o${n + 1}`)
const list = <T extends object>(v: unknown): T[] =>
	Array.isArray(v) ? v.filter((x): x is T => Boolean(x) && typeof x === 'object') : []

/** The kind a question's filled-in fields say, or its own. */
export function questionType(q: Question): unknown {
	if (list(q.options).length) return 'multiple_choice'
	if (!blank(q.acceptedAnswers)) return 'short_answer'
	if (typeof q.correct === 'boolean') return 'true_false'
	return q.type
}

/** The kind an entry's blocks say, or its own. */
export function entryType(e: Entry): unknown {
	if (e.quiz && typeof e.quiz === 'object') return 'quiz'
	if (e.assignment && typeof e.assignment === 'object') return 'assignment'
	return e.type
}

function fillQuestions(questions: Question[]) {
	const keys = new Set(questions.map((q) => q.key).filter((k) => !blank(k)))
	questions.forEach((q, i) => {
		if (blank(q.key)) q.key = unique(`q${i + 1}`, keys)
		q.type = questionType(q)
		const options = list<Option>(q.options)
		const taken = new Set(options.map((o) => o.key).filter((k) => !blank(k)))
		options.forEach((o, n) => {
			if (blank(o.key)) o.key = unique(optionKey(n), taken)
		})
	})
}

/** A slug not yet taken in `taken` (then recorded as taken), or null. */
const free = (slug: unknown, taken: Set<unknown>): string | null =>
	blank(slug) || taken.has(slug) ? null : (taken.add(slug), slug as string)

/**
 * Fills what is empty; true when it made the course's slug (which the caller makes free in its site).
 * `canonical` is the course's en version when `data` is a translation: the content API matches a
 * translation's modules and entries to en's by slug (src/utils/view.ts), so a translated module or
 * entry takes the slug of en's in the same place (a Spanish "Primeros pasos" is en's `first-steps`),
 * and an entry en's kind, rather than slugs made from the translated titles, which would match nothing.
 */
export function fillIds(data: unknown, canonical: CourseData | null = null): boolean {
	if (!data || typeof data !== 'object') return false
	const course = data as CourseData
	const madeSlug = blank(course.slug) && !blank(course.title)
	if (madeSlug) course.slug = slugify(course.title) || 'course'
	const modules = list<Module>(course.modules)
	const moduleSlugs = new Set(modules.map((m) => m.slug).filter((s) => !blank(s)))
	const entries = modules.flatMap((m) => list<Entry>(m.entries))
	const entrySlugs = new Set(entries.map((e) => e.slug).filter((s) => !blank(s)))
	const enModules = list<Module>(canonical?.modules)
	const enEntries = new Map(enModules.flatMap((m) => list<Entry>(m.entries)).map((e) => [e.slug, e]))
	modules.forEach((m, i) => {
		const enModule = enModules[i] as Module | undefined
		if (blank(m.slug))
			m.slug = free(enModule?.slug, moduleSlugs) ?? unique(slugify(m.title) || `module-${i + 1}`, moduleSlugs)
		list<Entry>(m.entries).forEach((e, j) => {
			const enEntry = list<Entry>(enModule?.entries)[j] as Entry | undefined
			if (blank(e.slug))
				e.slug = free(enEntry?.slug, entrySlugs) ?? unique(slugify(e.title) || `entry-${i + 1}-${j + 1}`, entrySlugs)
			e.type = enEntries.get(e.slug)?.type ?? entryType(e)
			if (e.quiz && typeof e.quiz === 'object')
				fillQuestions(list<Question>((e.quiz as { questions?: unknown }).questions))
		})
	})
	return madeSlug
}

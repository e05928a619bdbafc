'use strict'
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
const blank = (v) => typeof v !== 'string' || v.trim() === ''

function slugify(text) {
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
function unique(base, taken) {
	let out = base
	for (let n = 2; taken.has(out); n++) out = `${base}-${n}`
	taken.add(out)
	return out
}

const letters = 'abcdefghijklmnopqrstuvwxyz'
const optionKey = (n) => (n < letters.length ? letters[n] : `o${n + 1}`)
const list = (v) => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : [])

/** The kind a question's filled-in fields say, or its own. */
function questionType(q) {
	if (list(q.options).length) return 'multiple_choice'
	if (!blank(q.acceptedAnswers)) return 'short_answer'
	if (typeof q.correct === 'boolean') return 'true_false'
	return q.type
}

/** The kind an entry's blocks say, or its own. */
function entryType(e) {
	if (e.quiz && typeof e.quiz === 'object') return 'quiz'
	if (e.assignment && typeof e.assignment === 'object') return 'assignment'
	return e.type
}

function fillQuestions(questions) {
	const keys = new Set(questions.map((q) => q.key).filter((k) => !blank(k)))
	questions.forEach((q, i) => {
		if (blank(q.key)) q.key = unique(`q${i + 1}`, keys)
		q.type = questionType(q)
		const options = list(q.options)
		const taken = new Set(options.map((o) => o.key).filter((k) => !blank(k)))
		options.forEach((o, n) => {
			if (blank(o.key)) o.key = unique(optionKey(n), taken)
		})
	})
}

/** A slug not yet taken in `taken` (then recorded as taken), or null. */
const free = (slug, taken) => (blank(slug) || taken.has(slug) ? null : (taken.add(slug), slug))

/**
 * Fills what is empty; true when it made the course's slug (which the caller makes free in its site).
 * `canonical` is the course's en version when `data` is a translation: the content API matches a
 * translation's modules and entries to en's by slug (src/lms/view.js), so a translated module or
 * entry takes the slug of en's in the same place (a Spanish "Primeros pasos" is en's `first-steps`),
 * and an entry en's kind, rather than slugs made from the translated titles, which would match nothing.
 */
function fillIds(data, canonical = null) {
	if (!data || typeof data !== 'object') return false
	const madeSlug = blank(data.slug) && !blank(data.title)
	if (madeSlug) data.slug = slugify(data.title) || 'course'
	const modules = list(data.modules)
	const moduleSlugs = new Set(modules.map((m) => m.slug).filter((s) => !blank(s)))
	const entries = modules.flatMap((m) => list(m.entries))
	const entrySlugs = new Set(entries.map((e) => e.slug).filter((s) => !blank(s)))
	const enModules = list(canonical?.modules)
	const enEntries = new Map(enModules.flatMap((m) => list(m.entries)).map((e) => [e.slug, e]))
	modules.forEach((m, i) => {
		const enModule = enModules[i]
		if (blank(m.slug))
			m.slug = free(enModule?.slug, moduleSlugs) ?? unique(slugify(m.title) || `module-${i + 1}`, moduleSlugs)
		list(m.entries).forEach((e, j) => {
			const enEntry = list(enModule?.entries)[j]
			if (blank(e.slug))
				e.slug = free(enEntry?.slug, entrySlugs) ?? unique(slugify(e.title) || `entry-${i + 1}-${j + 1}`, entrySlugs)
			e.type = enEntries.get(e.slug)?.type ?? entryType(e)
			if (e.quiz && typeof e.quiz === 'object') fillQuestions(list(e.quiz.questions))
		})
	})
	return madeSlug
}

module.exports = { fillIds, slugify, questionType, entryType }

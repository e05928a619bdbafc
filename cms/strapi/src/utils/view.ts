/**
 * Shapes Strapi documents into the content API of cms/README.md, for one locale.
 *
 * Strapi keeps one document per locale (a whole translation), with its own copy of the modules,
 * entries and questions. Our API falls back to en field by field: `en` is the canonical document
 * (slugs, order, types, numbers), and each localized text comes from the requested locale's
 * document when it has one there (matched by slug or key), else from en, with the locale it was
 * served in beside it.
 */

import type {
	Assignment,
	Course,
	Entry,
	Instant,
	Item,
	Label,
	Media,
	Option,
	Page,
	Post,
	Question,
	Quiz,
	Site,
	Text,
} from './content-types'
import { nameField } from './content-types'

export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'zh']

/** What the view needs of a site's assets (api::content.assets). */
export type AssetUrls = {
	url(media: Media, base: string): string | null
	rewrite(text: unknown, base: string): string
}
type Options = { locale: string; base: string; assets: AssetUrls }

const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

/** `localized` may be null (no translation in this locale): every field then falls back. */
function pick<T extends object>(en: T | null | undefined, localized: T | null | undefined, field: keyof T) {
	const own = localized?.[field]
	if (localized && present(own)) return { text: own, locale: null }
	const fallback = en?.[field]
	return { text: present(fallback) ? fallback : '', locale: 'en' as const }
}

const byKey = <T, K extends keyof T>(list: T[] | null | undefined, key: K, value: T[K]): T | null =>
	(list ?? []).find((item) => item?.[key] === value) ?? null
const iso = (value: Instant) => (value ? new Date(value).toISOString() : null)

/** The texts of one locale: each with the locale it is served in, asset references made this service's URLs. */
function textsOf({ locale, base, assets }: Options) {
	const served = <T extends object>(en: T, localized: T | null | undefined, field: keyof T) =>
		pick(en, localized, field).locale ? 'en' : locale
	// Asset references in Markdown: Strapi's upload URLs (what the editor inserts) and the seed's
	// {{asset:<id>}} placeholders become this service's asset URLs, which the app rewrites.
	const expand = (text: unknown) => assets.rewrite(text, base)
	const text = <T extends object>(en: T, localized: T | null | undefined, field: keyof T) =>
		expand(pick(en, localized, field).text)
	const url = (media: Media) => assets.url(media, base)
	return { locale, served, expand, text, url }
}
type Texts = ReturnType<typeof textsOf>

function site({ text, served, url }: Texts, en: Site, loc: Site | null) {
	const name = text(en, loc, 'name')
	return {
		name,
		short_name: text(en, loc, 'short_name') || name,
		description: text(en, loc, 'description'),
		theme_color: en.theme_color,
		background_color: en.background_color,
		...(en.accent_color ? { accent_color: en.accent_color } : {}),
		security_contact: en.security_contact || null,
		favicon: url(en.favicon),
		icon: url(en.icon),
		og_image: url(en.og_image),
		updatedAt: iso(en.updatedAt),
		locale: served(en, loc, 'name'),
		descriptionLocale: served(en, loc, 'description'),
	}
}

function courseSummary(t: Texts, { en, loc, status }: Item<Course>) {
	const { text, served } = t
	const image = t.url(en.image)
	return {
		slug: en.slug,
		status,
		listed: en.listed !== false,
		publishedAt: status === 'draft' ? null : iso(en.publicationDate ?? en.publishedAt),
		archivedAt: status === 'archived' ? iso(en.archivedAt) : null,
		updatedAt: iso(en.updatedAt),
		price:
			en.priceAmount !== null && en.priceAmount !== undefined
				? { amount: en.priceAmount, currency: en.priceCurrency || 'USD' }
				: null,
		estimatedMinutes: en.estimatedMinutes ?? null,
		title: text(en, loc, 'title'),
		summary: text(en, loc, 'summary'),
		entryCount: (en.modules ?? []).reduce((n, m) => n + (m.entries?.length ?? 0), 0),
		locale: served(en, loc, 'title'),
		summaryLocale: served(en, loc, 'summary'),
		// The catalogue's filters and the home page's choice (the app's decision 0042); optional in the API.
		...(en.categories?.length ? { categories: labels(t, en.categories) } : {}),
		...(en.tags?.length ? { tags: labels(t, en.tags) } : {}),
		...(typeof en.featured === 'boolean' ? { featured: en.featured } : {}),
		// The course's picture (decision 0082): one for every translation; only a file of the course's site.
		...(image ? { image } : {}),
	}
}

/**
 * Categories or tags: en's list (slugs, order; every translation lists the same, decision 0098), each
 * named in this locale when its field for the locale (`nameEs`) is filled, else in en.
 */
function labels({ locale }: Texts, list: Label[]) {
	const field = nameField(locale)
	return list.map((l) => ({ slug: l.slug, name: present(l[field]) ? l[field] : present(l.name) ? l.name : '' }))
}

function course(t: Texts, doc: Item<Course>) {
	const { en, loc } = doc
	const { text, served } = t
	return {
		...courseSummary(t, doc),
		description: text(en, loc, 'description'),
		descriptionLocale: served(en, loc, 'description'),
		modules: (en.modules ?? []).map((m) => {
			const lm = byKey(loc?.modules, 'slug', m.slug)
			return {
				slug: m.slug,
				title: text(m, lm, 'title'),
				locale: served(m, lm, 'title'),
				entries: (m.entries ?? []).map((e) => {
					const le = byKey(lm?.entries, 'slug', e.slug)
					return {
						slug: e.slug,
						type: e.type,
						title: text(e, le, 'title'),
						estimatedMinutes: e.estimatedMinutes ?? null,
						locale: served(e, le, 'title'),
						...due(e),
					}
				}),
			}
		}),
		...(en.certificate ? { certificate: certificate(t, en.certificate, loc?.certificate) } : {}),
		// What passing takes (decision 0037): one rule for every translation.
		...passRuleOf(en),
	}
}

/** Whether passing earns a certificate (decision 0038): en decides; the criteria fall back to en's like any text. */
function certificate({ text, served }: Texts, c: NonNullable<Course['certificate']>, lc: Course['certificate']) {
	return {
		enabled: c.enabled === true,
		...(present(c.criteria) ? { criteria: text(c, lc, 'criteria'), criteriaLocale: served(c, lc, 'criteria') } : {}),
	}
}

/** null when the course has no such entry. */
function entry(t: Texts, doc: Pick<Item<Course>, 'en' | 'loc'>, entrySlug: string) {
	const { en, loc } = doc
	const { text, served } = t
	for (const m of en.modules ?? []) {
		const e = byKey(m.entries, 'slug', entrySlug)
		if (!e) continue
		const lm = byKey(loc?.modules, 'slug', m.slug)
		const le = byKey(lm?.entries, 'slug', e.slug)
		const bodyLocale = served(e, le, 'body')
		return {
			slug: e.slug,
			type: e.type,
			courseSlug: en.slug,
			moduleSlug: m.slug,
			title: text(e, le, 'title'),
			body: text(e, le, 'body'),
			estimatedMinutes: e.estimatedMinutes ?? null,
			locale: served(e, le, 'title'),
			bodyLocale,
			quiz: e.type === 'quiz' && e.quiz ? quiz(t, e.quiz, le?.quiz) : null,
			...(e.type === 'assignment' && e.assignment ? { assignment: assignment(t, e.assignment, le?.assignment) } : {}),
			...due(e),
		}
	}
	return null
}

/** The entry's due date (one for every translation, from en): an instant, or days after enrolling; absent when none. */
function due(e: Entry) {
	if (e.dueAt) return { due: { at: iso(e.dueAt) } }
	if (Number.isInteger(e.dueDaysAfterEnrollment)) return { due: { daysAfterEnrollment: e.dueDaysAfterEnrollment } }
	return {}
}

function assignment({ text, served }: Texts, a: Assignment, la: Assignment | null | undefined) {
	const types = String(a.allowedFileTypes ?? '')
		.split(',')
		.map((t) => t.trim())
		.filter(Boolean)
	return {
		graded: a.graded === true,
		...(a.maxScore === null || a.maxScore === undefined ? {} : { maxScore: a.maxScore }),
		...(a.passingScore === null || a.passingScore === undefined ? {} : { passingScore: a.passingScore }),
		...(types.length ? { allowedFileTypes: types } : {}),
		...(present(a.instructions)
			? { instructions: text(a, la, 'instructions'), instructionsLocale: served(a, la, 'instructions') }
			: {}),
	}
}

function quiz({ expand, locale }: Texts, q: Quiz, lq: Quiz | null | undefined) {
	return {
		maxAttempts: q.maxAttempts,
		passingScore: q.passingScore,
		...(q.revealAnswers ? { revealAnswers: q.revealAnswers } : {}),
		...(q.showAnswers ? { showAnswers: q.showAnswers } : {}),
		...(q.shuffle ? { shuffle: true } : {}),
		questions: (q.questions ?? []).map((question) => {
			const lquestion = byKey(lq?.questions, 'key', question.key)
			// A question's prompt, options and explanation are one translation: all from the same locale.
			const from = lquestion && present(lquestion.prompt) ? lquestion : question
			const optionText = (o: Option) => {
				const lo = from === question ? null : byKey(from.options, 'key', o.key)
				return expand(present(lo?.text) ? lo.text : o.text)
			}
			return {
				id: question.key,
				type: question.type,
				prompt: expand(from.prompt),
				explanation: expand(present(from.explanation) ? from.explanation : (question.explanation ?? '')),
				locale: from === question ? 'en' : locale,
				...(question.type === 'multiple_choice'
					? {
							options: (question.options ?? []).map((o) => ({ id: o.key, text: optionText(o) })),
							correctOptionId: correctOption(question),
						}
					: {}),
				...(question.type === 'true_false' ? { correct: question.correct === true } : {}),
				...(question.type === 'short_answer'
					? {
							acceptedAnswers: String(question.acceptedAnswers ?? '')
								.split('\n')
								.map((s) => s.trim())
								.filter(Boolean),
						}
					: {}),
			}
		}),
	}
}

function pageSummary({ text, served }: Texts, { en, loc, status }: Item<Page>) {
	return {
		slug: en.slug,
		status,
		listed: en.listed !== false,
		parent: en.parent || null,
		order: en.order ?? 0,
		updatedAt: iso(en.updatedAt),
		title: text(en, loc, 'title'),
		locale: served(en, loc, 'title'),
	}
}

type Branch = { slug: string; title: string; locale: string; children: Branch[] }

function hierarchy({ text, served }: Texts, docs: Item<Page>[]) {
	const visible = docs.filter((d) => d.status === 'published' && d.en.listed !== false)
	const build = (parent: string | null): Branch[] =>
		visible
			.filter((d) => (d.en.parent || null) === parent)
			.sort((a, b) => (a.en.order ?? 0) - (b.en.order ?? 0))
			.map((d) => ({
				slug: d.en.slug,
				title: text(d.en, d.loc, 'title'),
				locale: served(d.en, d.loc, 'title'),
				children: build(d.en.slug),
			}))
	return build(null)
}

function postSummary({ text, served, url }: Texts, { en, loc, status }: Item<Post>) {
	return {
		slug: en.slug,
		status,
		publishedAt: status === 'draft' ? null : iso(en.publicationDate ?? en.publishedAt),
		updatedAt: iso(en.updatedAt),
		author: en.author || null,
		hero: url(en.hero),
		title: text(en, loc, 'title'),
		excerpt: text(en, loc, 'excerpt'),
		locale: served(en, loc, 'title'),
		excerptLocale: served(en, loc, 'excerpt'),
	}
}

/** The view of one locale: each document's shape in the API, its texts in `locale` or en's. */
export function createView(options: Options) {
	const t = textsOf(options)
	const withBody = <T extends { body?: Text }>({ en, loc }: Item<T>) => ({
		body: t.text(en, loc, 'body'),
		bodyLocale: t.served(en, loc, 'body'),
	})
	return {
		site: (en: Site, loc: Site | null) => site(t, en, loc),
		courseSummary: (doc: Item<Course>) => courseSummary(t, doc),
		course: (doc: Item<Course>) => course(t, doc),
		entry: (doc: Pick<Item<Course>, 'en' | 'loc'>, entrySlug: string) => entry(t, doc, entrySlug),
		pageSummary: (doc: Item<Page>) => pageSummary(t, doc),
		page: (doc: Item<Page>) => ({ ...pageSummary(t, doc), ...withBody(doc) }),
		hierarchy: (docs: Item<Page>[]) => hierarchy(t, docs),
		postSummary: (doc: Item<Post>) => postSummary(t, doc),
		post: (doc: Item<Post>) => ({ ...postSummary(t, doc), ...withBody(doc) }),
	}
}

/**
 * The pass rule (decision 0037) from the course's plain fields (decision 0073): only the ones set,
 * in the order the local service's files write them; none set: the older JSON field, else none.
 */
function passRuleOf(en: Course) {
	const fields = (
		[
			['quizzes', en.passQuizzes],
			['assignments', en.passAssignments],
			['minimumAverage', en.passMinimumAverage],
		] as const
	).filter(([, v]) => v !== null && v !== undefined)
	if (fields.length) return { passRule: Object.fromEntries(fields) }
	return en.passRule ? { passRule: en.passRule } : {}
}

/** The right option of a multiple-choice question: the one marked correct, else the older key field. */
function correctOption(question: Question) {
	const marked = (question.options ?? []).find((o) => o.correct === true)
	return marked ? marked.key : question.correctOptionKey
}

// How the local content service (cms/server.ts) shows a stored document in one locale: localized
// strings picked (falling back to en) and asset references expanded to its URLs, in the shapes of
// the content API (cms/README.md).

export const CMS_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'zh'] as const

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixture files of any shape, checked by the app's zod schemas
export type Json = any
type Localized = Record<string, string>

/** A request the API refuses: its status and message, answered as `{ error: { status, message } }`. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message)
	}
}

function isLocalized(value: unknown): value is Localized {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		'en' in value &&
		Object.keys(value).every((k) => (CMS_LOCALES as readonly string[]).includes(k))
	)
}

/** Renders stored documents for one locale: picks localized strings (falling back to en) and expands asset references to URLs. */
export class View {
	constructor(
		readonly locale: string,
		readonly base: string,
	) {}

	text(value: unknown): string {
		if (isLocalized(value)) return this.expand(value[this.locale] ?? value.en)
		return typeof value === 'string' ? this.expand(value) : ''
	}

	/**
	 * The locale one field of a document is actually served in: the requested one when the field
	 * exists in it, else en. `locale` names the title's; each field that can fall back apart from
	 * the title says its own (`summaryLocale`, `bodyLocale`, …; decision 0012).
	 */
	servedLocale(doc: Json, field = 'title') {
		return isLocalized(doc[field]) && doc[field][this.locale] ? this.locale : 'en'
	}

	expand(text: string) {
		return text.replace(/\{\{asset:([a-z0-9-]+)\}\}/g, (_, id) => this.assetUrl(id))
	}

	assetUrl(id: string) {
		return `${this.base}/assets/${id}`
	}

	/** `{ "asset": "<id>" }` becomes this service's asset URL; a plain string (an external URL) is passed through. */
	assetRef(ref: Json) {
		if (typeof ref === 'string') return ref
		return ref && typeof ref === 'object' && typeof ref.asset === 'string' ? this.assetUrl(ref.asset) : null
	}

	site(doc: Json) {
		return {
			name: this.text(doc.name),
			short_name: this.text(doc.short_name) || this.text(doc.name),
			description: this.text(doc.description),
			theme_color: doc.theme_color,
			background_color: doc.background_color,
			accent_color: doc.accent_color,
			security_contact: doc.security_contact ?? null,
			favicon: this.assetRef(doc.favicon),
			icon: this.assetRef(doc.icon),
			og_image: this.assetRef(doc.og_image),
			updatedAt: doc.updatedAt,
			locale: this.servedLocale(doc, 'name'),
			descriptionLocale: this.servedLocale(doc, 'description'),
		}
	}

	courseSummary(doc: Json) {
		const image = this.assetRef(doc.image)
		return {
			slug: doc.slug,
			status: doc.status,
			listed: doc.listed !== false,
			publishedAt: doc.publishedAt ?? null,
			archivedAt: doc.archivedAt ?? null,
			updatedAt: doc.updatedAt,
			price: doc.price ?? null,
			estimatedMinutes: doc.estimatedMinutes ?? null,
			title: this.text(doc.title),
			summary: this.text(doc.summary),
			entryCount: (doc.modules ?? []).reduce((n: number, m: Json) => n + (m.entries?.length ?? 0), 0),
			locale: this.servedLocale(doc),
			summaryLocale: this.servedLocale(doc, 'summary'),
			// Optional in the content (decision 0042 of the app): sent only when the course has them.
			...(Array.isArray(doc.categories) ? { categories: this.labels(doc.categories) } : {}),
			...(Array.isArray(doc.tags) ? { tags: this.labels(doc.tags) } : {}),
			...(typeof doc.featured === 'boolean' ? { featured: doc.featured } : {}),
			// The course's picture (decision 0082): an asset URL of this service, sent only when the course has one.
			...(image ? { image } : {}),
		}
	}

	/** Categories and tags: the slug as stored, the name in this locale (else en). */
	labels(list: Json[]) {
		return list.map((l: Json) => ({ slug: l.slug, name: this.text(l.name) }))
	}

	course(doc: Json) {
		return {
			...this.courseSummary(doc),
			description: this.text(doc.description),
			descriptionLocale: this.servedLocale(doc, 'description'),
			modules: (doc.modules ?? []).map((m: Json) => ({
				slug: m.slug,
				title: this.text(m.title),
				locale: this.servedLocale(m),
				entries: (m.entries ?? []).map((e: Json) => ({
					slug: e.slug,
					type: e.type,
					title: this.text(e.title),
					estimatedMinutes: e.estimatedMinutes ?? null,
					locale: this.servedLocale(e),
					...this.due(e),
				})),
			})),
			...(doc.certificate ? { certificate: this.certificate(doc.certificate) } : {}),
			...(doc.passRule ? { passRule: doc.passRule } : {}),
		}
	}

	certificate(doc: Json) {
		return {
			enabled: doc.enabled === true,
			...(doc.criteria === undefined
				? {}
				: { criteria: this.text(doc.criteria), criteriaLocale: this.servedLocale(doc, 'criteria') }),
		}
	}

	entry(course: Json, entrySlug: string) {
		for (const module of course.modules ?? []) {
			const entry = (module.entries ?? []).find((e: Json) => e.slug === entrySlug)
			if (!entry) continue
			return {
				slug: entry.slug,
				type: entry.type,
				courseSlug: course.slug,
				moduleSlug: module.slug,
				title: this.text(entry.title),
				body: this.text(entry.body),
				estimatedMinutes: entry.estimatedMinutes ?? null,
				locale: this.servedLocale(entry),
				bodyLocale: this.servedLocale(entry, 'body'),
				quiz: entry.quiz ? this.quiz(entry.quiz) : null,
				...(entry.assignment ? { assignment: this.assignment(entry.assignment) } : {}),
				...this.due(entry),
			}
		}
		throw new ApiError(404, 'Not found')
	}

	/** An entry's due date as the API serves it (cms/README.md): an instant, or days after enrolling; absent when none. */
	due(entry: Json) {
		if (typeof entry.dueAt === 'string') return { due: { at: new Date(entry.dueAt).toISOString() } }
		if (Number.isInteger(entry.dueDaysAfterEnrollment))
			return { due: { daysAfterEnrollment: entry.dueDaysAfterEnrollment } }
		return {}
	}

	assignment(doc: Json) {
		return {
			graded: doc.graded === true,
			...(doc.maxScore === undefined ? {} : { maxScore: doc.maxScore }),
			...(doc.passingScore === undefined ? {} : { passingScore: doc.passingScore }),
			...(doc.allowedFileTypes === undefined ? {} : { allowedFileTypes: doc.allowedFileTypes }),
			...(doc.instructions === undefined
				? {}
				: { instructions: this.text(doc.instructions), instructionsLocale: this.servedLocale(doc, 'instructions') }),
		}
	}

	quiz(doc: Json) {
		return {
			maxAttempts: doc.maxAttempts,
			passingScore: doc.passingScore,
			...(doc.revealAnswers === undefined ? {} : { revealAnswers: doc.revealAnswers }),
			...(doc.showAnswers === undefined ? {} : { showAnswers: doc.showAnswers }),
			...(doc.shuffle === undefined ? {} : { shuffle: doc.shuffle }),
			questions: doc.questions.map((q: Json) => ({
				id: q.id,
				type: q.type,
				prompt: this.text(q.prompt),
				explanation: this.text(q.explanation),
				locale: this.servedLocale(q, 'prompt'),
				...(q.type === 'multiple_choice'
					? {
							options: q.options.map((o: Json) => ({ id: o.id, text: this.text(o.text) })),
							correctOptionId: q.correctOptionId,
						}
					: {}),
				...(q.type === 'true_false' ? { correct: q.correct } : {}),
				...(q.type === 'short_answer' ? { acceptedAnswers: q.acceptedAnswers } : {}),
			})),
		}
	}

	pageSummary(doc: Json) {
		return {
			slug: doc.slug,
			status: doc.status,
			listed: doc.listed !== false,
			parent: doc.parent ?? null,
			order: doc.order ?? 0,
			updatedAt: doc.updatedAt,
			title: this.text(doc.title),
			locale: this.servedLocale(doc),
		}
	}

	page(doc: Json) {
		return { ...this.pageSummary(doc), body: this.text(doc.body), bodyLocale: this.servedLocale(doc, 'body') }
	}

	hierarchy(pages: Json[]) {
		const visible = pages.filter((p) => p.status === 'published' && p.listed !== false)
		const build = (parent: string | null): Json[] =>
			visible
				.filter((p) => (p.parent ?? null) === parent)
				.sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
				.map((p) => ({
					slug: p.slug,
					title: this.text(p.title),
					locale: this.servedLocale(p),
					children: build(p.slug),
				}))
		return build(null)
	}

	postSummary(doc: Json) {
		return {
			slug: doc.slug,
			status: doc.status,
			publishedAt: doc.publishedAt ?? null,
			updatedAt: doc.updatedAt,
			author: doc.author ?? null,
			hero: this.assetRef(doc.hero),
			title: this.text(doc.title),
			excerpt: this.text(doc.excerpt),
			locale: this.servedLocale(doc),
			excerptLocale: this.servedLocale(doc, 'excerpt'),
		}
	}

	post(doc: Json) {
		return { ...this.postSummary(doc), body: this.text(doc.body), bodyLocale: this.servedLocale(doc, 'body') }
	}
}

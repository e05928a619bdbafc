import MiniSearch, { type Query } from 'minisearch'
import type { Locale } from '#db/schema/values.ts'
import { documentTerms, queryTerms, type QueryTerm } from './search-text.ts'

// The catalogue's index (decision 0074): MiniSearch holds the terms, matches them exactly, by
// prefix and by a one-letter slip, and ranks by BM25 with a weight per field. What a term is
// (folding, Snowball stems in each field's own locale, Han pairs) stays in search-text.ts: a
// field's locale is the document's (an English fallback title on a French page), which MiniSearch's
// processTerm, given only the field's name, cannot know.

/** Title hits rank above tags and categories, above the summary, above module and entry titles, above the description. */
const WEIGHTS = { title: 8, labels: 5, summary: 3, outline: 2, description: 1 } as const
export type Field = keyof typeof WEIGHTS
const FIELDS = Object.keys(WEIGHTS) as Field[]

/** A document's searchable text: per field, its pieces with the locale each was served in. */
export type FieldTexts = Partial<Record<Field, Array<[text: string, locale: Locale]>>>

interface Indexed {
	id: string
	terms: Partial<Record<Field, string>>
}

/** A query word's spelling matches the start of a longer word from this many letters… */
const PREFIX_FROM = 3
/** …and a word one letter off from this many. */
const FUZZY_FROM = 5

/** One query word: its spelling (by prefix and one slip too), or any of its stems in the locales indexed. */
function wordQuery(term: QueryTerm, locales: Iterable<Locale>): Query {
	if (term.kind === 'han') return { queries: [term.gram], prefix: false, fuzzy: false }
	const spelling: Query = {
		queries: [term.surface],
		prefix: term.surface.length >= PREFIX_FROM,
		fuzzy: term.surface.length >= FUZZY_FROM ? 1 : false,
	}
	const stems = new Set<string>()
	for (const locale of locales) for (const form of term.forms(locale)) stems.add(form)
	stems.delete(term.surface)
	if (stems.size === 0) return spelling
	return { combineWith: 'OR', queries: [spelling, { queries: [...stems], prefix: false, fuzzy: false }] }
}

/**
 * A catalogue's index: documents filed by id (a course's slug) with the object their text came
 * from, so a document the content cache still holds is not indexed again.
 */
export function createCatalogueIndex() {
	const index = new MiniSearch<Indexed>({
		fields: FIELDS,
		extractField: (doc, field) => (field === 'id' ? doc.id : doc.terms[field as Field]),
		// The terms are made by documentTerms and joined with spaces: read back as they are.
		tokenize: (text) => text.split(' '),
		processTerm: (term) => term || null,
		searchOptions: {
			boost: WEIGHTS,
			weights: { prefix: 0.5, fuzzy: 0.4 },
			tokenize: (term) => [term],
			processTerm: (term) => term,
		},
	})
	const sources = new Map<string, object>()
	const locales = new Set<Locale>()

	return {
		/** Files `fields` under `id` unless the same `source` is filed there already. */
		put(id: string, source: object, fields: FieldTexts) {
			if (sources.get(id) === source) return
			const terms: Indexed['terms'] = {}
			for (const field of FIELDS) {
				const pieces = fields[field] ?? []
				for (const [, locale] of pieces) locales.add(locale)
				terms[field] = pieces.flatMap(([text, locale]) => documentTerms(text, locale)).join(' ')
			}
			if (sources.has(id)) index.discard(id)
			index.add({ id, terms })
			sources.set(id, source)
		},
		/** Drops every document whose id is not in `ids`. */
		keepOnly(ids: Set<string>) {
			for (const id of sources.keys())
				if (!ids.has(id)) {
					index.discard(id)
					sources.delete(id)
				}
		},
		/** The score of each document among `ids` that matches every word of `query` (typed on a page in `locale`). */
		search(query: string, locale: Locale, ids: Set<string>): Map<string, number> {
			const terms = queryTerms(query, locale)
			if (terms.length === 0) return new Map()
			const searched = new Set([locale, ...locales])
			const queries = terms.map((term) => wordQuery(term, searched))
			const results = index.search({ combineWith: 'AND', queries }, { filter: (r) => ids.has(r.id as string) })
			return new Map(results.map((r) => [r.id as string, r.score]))
		},
	}
}

export type CatalogueIndex = ReturnType<typeof createCatalogueIndex>

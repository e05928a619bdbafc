import { stemmer as english } from '@orama/stemmers/english'
import { stemmer as french } from '@orama/stemmers/french'
import { stemmer as german } from '@orama/stemmers/german'
import { stemmer as portuguese } from '@orama/stemmers/portuguese'
import { stemmer as spanish } from '@orama/stemmers/spanish'
import type { Locale } from '#db/schema/values.ts'

// Words as the catalogue search compares them (decision 0042): lower case in the text's locale,
// accents and other combining marks stripped, and each word also as its Snowball stem where the
// language has one. Chinese has no spaces between words: a run of Han characters is read as its
// overlapping pairs (bigrams), and a document's runs also as single characters. MiniSearch
// (catalogue-index.ts) indexes and ranks the terms made here.

const STEMMERS: Record<Locale, ((word: string) => string) | null> = {
	en: english,
	es: spanish,
	fr: french,
	de: german,
	pt: portuguese,
	zh: null,
}

/** Letters that have no decomposition but that a reader takes for two (ß is ss, œ is oe). */
const LIGATURES: Record<string, string> = { ß: 'ss', œ: 'oe', æ: 'ae', ø: 'o', đ: 'd', ł: 'l', ı: 'i' }

/** Lower case in `locale`, marks stripped: `Résumé` → `resume`, `CAFÉ` → `cafe`. */
export function fold(text: string, locale: Locale): string {
	return text
		.toLocaleLowerCase(locale)
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.replace(/[ßœæøđłı]/g, (c) => LIGATURES[c] ?? c)
}

// A Han run, or a run of other letters and digits (with the marks that belong to them).
const TOKEN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}])+/gu
const HAN = /^\p{Script=Han}/u

type Token = { kind: 'word'; surface: string; forms: string[] } | { kind: 'han'; grams: string[] }

function stem(word: string, locale: Locale) {
	const stemmer = STEMMERS[locale]
	return stemmer ? stemmer(word) : word
}

/**
 * A word's forms: its folded spelling and the folded stems of it as written and as folded (the
 * stemmers know accents: Spanish `programación` stems to `program`, `programacion` does not).
 */
function wordForms(word: string, locale: Locale): string[] {
	const lower = word.toLocaleLowerCase(locale).normalize('NFC')
	const folded = fold(lower, locale)
	return [...new Set([folded, fold(stem(lower, locale), locale), stem(folded, locale)])].filter(Boolean)
}

function bigrams(run: string): string[] {
	const chars = [...run]
	if (chars.length === 1) return chars
	return chars.slice(1).map((c, i) => chars[i] + c)
}

/** The tokens of a text in `locale`; `document` adds each Han character alone (a query of one character finds it). */
function tokenize(text: string, locale: Locale, document = false): Token[] {
	const tokens: Token[] = []
	for (const [run] of text.normalize('NFC').matchAll(TOKEN)) {
		if (HAN.test(run)) {
			const grams = bigrams(run)
			tokens.push({ kind: 'han', grams: document && grams.length > 1 ? [...grams, ...run] : grams })
		} else {
			tokens.push({ kind: 'word', surface: fold(run, locale), forms: wordForms(run, locale) })
		}
	}
	return tokens
}

/**
 * The terms a document's text is indexed under (MiniSearch reads them as they are): every form of
 * each word (spelling and stems), each Han pair and each Han character alone.
 */
export function documentTerms(text: string, locale: Locale): string[] {
	const terms: string[] = []
	for (const token of tokenize(text, locale, true)) terms.push(...(token.kind === 'han' ? token.grams : token.forms))
	return terms
}

export type QueryTerm =
	{ kind: 'han'; gram: string } | { kind: 'word'; surface: string; forms: (locale: Locale) => string[] }

/** At most this many terms of a query are looked for; the rest are ignored. */
const MAX_QUERY_TERMS = 12

/** The terms of a query typed on a page in `locale` (a word's forms are worked out per field locale, once each). */
export function queryTerms(query: string, locale: Locale): QueryTerm[] {
	const terms: QueryTerm[] = []
	const seen = new Set<string>()
	for (const token of tokenize(query, locale)) {
		if (token.kind === 'han') {
			for (const gram of token.grams) {
				if (seen.has(gram)) continue
				seen.add(gram)
				terms.push({ kind: 'han', gram })
			}
			continue
		}
		if (seen.has(token.surface)) continue
		seen.add(token.surface)
		const cache = new Map<Locale, string[]>([[locale, token.forms]])
		const raw = token.surface
		terms.push({
			kind: 'word',
			surface: raw,
			forms: (l) => cache.get(l) ?? cache.set(l, [...new Set([...token.forms, ...wordForms(raw, l)])]).get(l)!,
		})
	}
	return terms.slice(0, MAX_QUERY_TERMS)
}

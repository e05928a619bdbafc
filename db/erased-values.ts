/*
 * Finding a person's values (their address and names) in text that staff and the system wrote about
 * them, and replacing them with `[erased]`, for an erasure (decisions 0044 and 0055). Matched here,
 * in JavaScript, in every alphabet: SQLite's lower() and LIKE fold only A to Z, and PostgreSQL's
 * lower() follows the database's locale, so neither may choose the rows (issue 52).
 */

export const ERASED = '[erased]'

const stripMarks = (s: string) =>
	s
		.normalize('NFD')
		.replace(/\p{M}+/gu, '')
		.normalize('NFC')

/**
 * The foldings under which two spellings are taken for one name: small letters by Unicode's rules
 * and by Turkish ones (where I is the capital of ı and İ that of i), each with and without accents
 * and other marks (Greek capitals drop the tonos: ΑΘΗΝΑ is Αθηνά). Compatibility forms (full-width
 * letters, ligatures) are folded first. Over-matching a similar name is the lesser harm here.
 */
const FOLDS: Array<(s: string) => string> = [
	(s) => s.normalize('NFKC').toLowerCase(),
	(s) => s.normalize('NFKC').toLocaleLowerCase('tr'),
	(s) => stripMarks(s.normalize('NFKC').toLowerCase()),
	(s) => stripMarks(s.normalize('NFKC').toLocaleLowerCase('tr')),
]

// Scripts written without spaces between words (and Korean, whose particles join the name).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A needle as a pattern: anywhere in the text; a name of one or two characters only as a word of
 * its own ("Al asked", not "Also"), except in a script without spaces, where two characters are a
 * whole name (王芳请假了).
 */
function source(needle: string) {
	const body = escape(needle)
	if ([...needle].length >= 3 || UNSPACED.test(needle)) return body
	return `(?<![\\p{L}\\p{N}\\p{M}])${body}(?![\\p{L}\\p{N}\\p{M}])`
}

export interface PersonMatcher {
	/** Whether the text holds one of the values, in any of their spellings. */
	mentions: (text: string) => boolean
	/** The text with each value replaced: where it is written as given (any case), else the whole text. */
	replace: (text: string) => string
}

/** A matcher of the person's values; one that matches nothing when there are none. */
export function personMatcher(values: string[]): PersonMatcher {
	const needles = [...new Set(values.map((v) => v.trim()).filter((v) => v.length > 0))]
	const folded = FOLDS.map((fold) => {
		const forms = [...new Set(needles.map(fold).filter((n) => n.trim().length > 0))]
		return { fold, pattern: forms.length ? new RegExp(forms.map(source).join('|'), 'u') : null }
	})
	const exact = needles.length ? new RegExp(needles.map(source).join('|'), 'giu') : null
	const mentions = (text: string) => folded.some(({ fold, pattern }) => pattern?.test(fold(text)) ?? false)
	const replace = (text: string) => {
		if (!exact || !mentions(text)) return text
		const replaced = text.replace(exact, ERASED)
		// Written in a form the exact pattern cannot see (capitals without accents, decomposed): all of it goes.
		return mentions(replaced) ? ERASED : replaced
	}
	return { mentions, replace }
}

/** Each string of a JSON value with the person's values replaced. */
export function scrubJson(value: unknown, matcher: PersonMatcher): unknown {
	if (typeof value === 'string') return matcher.replace(value)
	if (Array.isArray(value)) return value.map((x) => scrubJson(x, matcher))
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, scrubJson(x, matcher)]))
	return value
}

import { CsvError, parse } from 'csv-parse/sync'
import { isLocale, LOCALE_NAMES, type Locale } from '../i18n/locales.ts'

/**
 * The lists an admin pastes or uploads (the enroll and invite pages), as rows in the order given:
 * each row is reported on its own, so nothing here validates or removes anything. CSV files as
 * spreadsheets save them in every locale we serve (decision 0040): comma, semicolon or tab
 * (detected), a UTF-8 byte-order mark or none, quoted cells, CRLF, LF or a lone CR. Bytes that are
 * not UTF-8 (a Windows-1252 "CSV" from an older Excel) are refused whole, never guessed.
 */

/** The most rows one request takes: more is refused whole, so a report is never cut short. */
export const MAX_ROWS = 500
/**
 * The most rows of the invite page's CSV file (decision 0059): a whole organisation at once, written a
 * chunk at a time. Its memory is bounded by the file's size (INVITE_CSV_BYTES, under the server
 * entry's 1 MiB) and this count.
 */
export const MAX_CSV_ROWS = 10_000

/** Why a file could not be read at all (catalogue keys `adminCourses.enroll.errors.*`), and where. */
export class ListError extends Error {
	constructor(
		readonly reason: 'notUtf8' | 'notCsv',
		/** The file's row (1 = its first line) where reading stopped, when known. */
		readonly row: number | null = null,
	) {
		super(reason)
	}
}

/** Pasted text: one address a line, or several separated by commas or semicolons. */
export function emailsFromText(text: string): string[] {
	return text
		.split(/[\r\n,;]+/)
		.map((s) => s.trim())
		.filter(Boolean)
}

/** The file's text: UTF-8 or refused (no replacement characters), without its byte-order mark. */
export function decodeCsv(bytes: Uint8Array): string {
	try {
		return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
	} catch {
		throw new ListError('notUtf8')
	}
}

const SEPARATORS = [',', ';', '\t'] as const

/**
 * The separator of the file: the one of comma, semicolon and tab that its first non-empty line
 * (outside quotes) uses most; a comma when it uses none (a one-column file).
 */
export function detectSeparator(text: string): (typeof SEPARATORS)[number] {
	const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]))
	let quoted = false
	let seen = false
	for (const ch of text.replace(/^\uFEFF/, '')) {
		if (ch === '"') quoted = !quoted
		else if (!quoted && (ch === '\n' || ch === '\r')) {
			if (seen) break
		} else if (!quoted) {
			if (counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
			if (ch.trim()) seen = true
		}
	}
	let best: (typeof SEPARATORS)[number] = ','
	for (const s of SEPARATORS) if (counts.get(s)! > counts.get(best)!) best = s
	return best
}

/** The line (1-based) where a quoted cell that never closes opens, or null. */
function unclosedQuoteRow(text: string) {
	let line = 1
	let quoted = false
	let opened = 0
	for (let i = 0; i < text.length; i++) {
		const ch = text[i]
		if (ch === '"') {
			if (!quoted) opened = line
			quoted = !quoted
		} else if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line++
	}
	return quoted ? opened : null
}

/** The file's rows (cells untrimmed), each with its line number in the file. */
export function readCsv(text: string): { row: number; cells: string[] }[] {
	try {
		const records = parse(text, {
			bom: true,
			delimiter: detectSeparator(text),
			skip_empty_lines: true,
			relax_column_count: true,
			// A quote inside an unquoted cell (5" screen) is a character, as spreadsheets read it.
			relax_quotes: true,
			info: true,
			// Any line end, also mixed in one file (a lone CR from old Mac exports).
			record_delimiter: ['\r\n', '\n', '\r'],
		}) as unknown as { record: string[]; info: { lines: number } }[]
		return records
			.map(({ record, info }) => ({ row: info.lines, cells: record }))
			.filter((r) => r.cells.some((c) => c.trim()))
	} catch (error) {
		// csv-parse refuses what no spreadsheet writes: an unclosed quote is named by the row it opens
		// on (csv-parse counts to the end of the file), anything else by csv-parse's line.
		if (!(error instanceof CsvError)) throw error
		const row =
			error.code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteRow(text) : (error as CsvError & { lines?: number }).lines
		throw new ListError('notCsv', row ?? null)
	}
}

/** One person of an invitation list: the row's cells, trimmed ('' when the column is absent). */
export interface ListedPerson {
	/** The file's line (1-based; the header is line 1) or the paste's position. */
	row: number
	email: string
	name: string
	role: string
	course: string
	/** The invitee's language as written (a code, a tag such as pt-BR, or its name); see readLanguage. */
	language: string
}

const COLUMNS = ['email', 'name', 'role', 'course', 'language'] as const
const HEADER_NAMES: Record<string, (typeof COLUMNS)[number]> = {
	email: 'email',
	'e-mail': 'email',
	name: 'name',
	role: 'role',
	course: 'course',
	course_slug: 'course',
	language: 'language',
	locale: 'language',
	lang: 'language',
}

/**
 * A CSV file of people: columns email, name, role, course (a slug) and language, named by a header row in any
 * order and case (other columns ignored), or without a header in that order. Rows without an email
 * cell are left out.
 */
export function peopleFromCsv(text: string): ListedPerson[] {
	const rows = readCsv(text)
	if (rows.length === 0) return []
	const header = rows[0].cells.map((cell) => HEADER_NAMES[cell.trim().toLowerCase()])
	const named = header.includes('email')
	const at = (column: (typeof COLUMNS)[number]) => (named ? header.indexOf(column) : COLUMNS.indexOf(column))
	const index = Object.fromEntries(COLUMNS.map((c) => [c, at(c)])) as Record<(typeof COLUMNS)[number], number>
	return rows
		.slice(named ? 1 : 0)
		.map(({ row, cells }) => {
			const cell = (column: (typeof COLUMNS)[number]) =>
				index[column] === -1 ? '' : (cells[index[column]] ?? '').trim()
			return {
				row,
				email: cell('email'),
				name: cell('name'),
				role: cell('role'),
				course: cell('course'),
				language: cell('language'),
			}
		})
		.filter((p) => p.email)
}

/** Each supported language as a list may name it: in English and in its own language (any case). */
const LANGUAGE_NAMES: Record<string, Locale> = Object.fromEntries([
	...(Object.entries(LOCALE_NAMES) as [Locale, string][]).map(([l, name]) => [name.toLowerCase(), l]),
	...Object.entries({ english: 'en', spanish: 'es', french: 'fr', german: 'de', portuguese: 'pt', chinese: 'zh' }),
])

/**
 * A list's language cell (decision 0065): '' is none (the inviter's page language applies); a
 * supported code or a tag of it (`es`, `ES`, `pt-BR`, `zh_Hans`), or the language's name in English
 * or in itself; anything else is `unknown`, and its row is reported, never guessed.
 */
export function readLanguage(cell: string): Locale | null | 'unknown' {
	const value = cell.trim().toLowerCase()
	if (!value) return null
	const primary = value.split(/[-_]/)[0]
	if (isLocale(primary)) return primary
	return LANGUAGE_NAMES[value] ?? 'unknown'
}

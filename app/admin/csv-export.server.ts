import { stringify } from 'csv-stringify/sync'
import type { Locale } from '#app/i18n/locales.ts'
import { wallClockInZone } from '#app/learning/due-dates.ts'

/*
 * CSV for the person who opens it (decision 0055): Excel and LibreOffice split a CSV they open
 * at the list separator of the system's locale, which is `;` where the decimal separator is `,`.
 * The file follows the locale the admin reads the site in, so a file exported from /fr/admin opens
 * in columns in a French spreadsheet. A record type, so that a new locale must choose.
 */
const SEPARATORS: Record<Locale, ',' | ';'> = { en: ',', zh: ',', es: ';', fr: ';', de: ';', pt: ';' }

const csvSeparator = (locale: Locale) => SEPARATORS[locale]

/**
 * The rows as CSV in the locale's separator. Every cell quoted (a spreadsheet whose separator is
 * another than the file's would split `a;=1+1` and run the formula), and cells that start like a
 * formula (= + - @ tab cr) prefixed with '. A UTF-8 byte-order mark first: Excel on Windows reads the
 * file as UTF-8 only with it (decision 0040). CRLF line ends.
 */
export function toCsv(rows: Array<Array<string | number | null>>, locale: Locale) {
	return stringify(rows, {
		delimiter: csvSeparator(locale),
		quoted: true,
		escape_formulas: true,
		record_delimiter: 'windows',
		bom: true,
	})
}

/**
 * An instant for a person, as spreadsheets in every locale read a date and time: the wall clock in
 * their zone, `YYYY-MM-DD HH:MM:SS` (no `T`, zone letter or milliseconds, which make it text).
 * Machines read the `_utc` column beside it (`utcCell`).
 */
export const localCell = (at: Date | null, timeZone: string) => (at ? wallClockInZone(at, timeZone) : null)

/** An instant for machines: ISO 8601 in UTC, as stored (milliseconds included). */
export const utcCell = (at: Date | null) => (at ? at.toISOString() : null)

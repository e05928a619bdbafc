import { parse } from 'csv-parse/sync'

/**
 * The addresses an admin pastes or uploads to enroll (admin.courses.$slug.enroll.tsx), as rows in
 * the order given: each row is reported on its own, so nothing here validates or removes anything.
 */

/** The most rows one request enrolls: more is refused whole, so a report is never cut short. */
export const MAX_ROWS = 500

/** Pasted text: one address a line, or several separated by commas or semicolons. */
export function emailsFromText(text: string): string[] {
	return text
		.split(/[\r\n,;]+/)
		.map((s) => s.trim())
		.filter(Boolean)
}

/**
 * A CSV file's addresses: the `email` column when the first row is a header naming it (any case,
 * any position), else the first column. Read by csv-parse as spreadsheets write it: quoted cells
 * (with `""`, commas and line breaks inside), a byte-order mark, CRLF, rows of uneven length.
 * A file that is not CSV at all (an unclosed quote) throws csv-parse's error.
 */
export function emailsFromCsv(text: string): string[] {
	const rows: string[][] = parse(text, {
		bom: true,
		skip_empty_lines: true,
		relax_column_count: true,
		// Any line end, also mixed in one file (a lone CR from old Mac exports).
		record_delimiter: ['\r\n', '\n', '\r'],
	})
	if (rows.length === 0) return []
	const header = rows[0].map((cell) => cell.trim().toLowerCase())
	const named = header.indexOf('email')
	const column = named === -1 ? 0 : named
	return rows
		.slice(named === -1 ? 0 : 1)
		.map((row) => (row[column] ?? '').trim())
		.filter(Boolean)
}

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
 * any position), else the first column. Quoted cells (with `""`, commas and line breaks inside),
 * a byte-order mark and CRLF line ends are read as spreadsheets write them. No library reads CSV
 * here (csv-stringify only writes it), and one column of addresses needs no more than this.
 */
export function emailsFromCsv(text: string): string[] {
	const rows = parseCsv(text.replace(/^\uFEFF/, ''))
	if (rows.length === 0) return []
	const header = rows[0].map((cell) => cell.trim().toLowerCase())
	const named = header.indexOf('email')
	const column = named === -1 ? 0 : named
	return rows
		.slice(named === -1 ? 0 : 1)
		.map((row) => (row[column] ?? '').trim())
		.filter(Boolean)
}

/** RFC 4180 rows; blank lines are dropped. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = []
	let row: string[] = []
	let cell = ''
	let quoted = false
	const endCell = () => {
		row.push(cell)
		cell = ''
	}
	const endRow = () => {
		endCell()
		if (row.length > 1 || row[0].trim() !== '') rows.push(row)
		row = []
	}
	for (let i = 0; i < text.length; i++) {
		const c = text[i]
		if (quoted) {
			if (c !== '"') cell += c
			else if (text[i + 1] === '"') {
				cell += '"'
				i++
			} else quoted = false
		} else if (c === '"') quoted = true
		else if (c === ',') endCell()
		else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++
			endRow()
		} else cell += c
	}
	if (cell !== '' || row.length > 0) endRow()
	return rows
}

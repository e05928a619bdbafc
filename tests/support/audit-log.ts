import { load } from 'cheerio'

/** One row of the audit log as an admin reads it: each cell's text, the details by their label. */
export interface AuditLogRow {
	action: string
	/** The stored action code shown beside the words. */
	code: string
	actor: string
	target: string
	details: Record<string, string>
}

/** The rows of an audit log page (a tenant host's: when, action, actor, target, details). */
export function auditLogRows(html: string): AuditLogRow[] {
	const $ = load(html)
	return $('tbody tr')
		.toArray()
		.map((tr) => {
			const td = $(tr).find('td')
			return {
				action: td.eq(1).text(),
				code: td.eq(1).find('code').text(),
				actor: td.eq(2).text(),
				target: td.eq(3).text(),
				details: Object.fromEntries(
					td
						.last()
						.find('dl.details > div')
						.toArray()
						.map((div) => [$(div).children('dt').text(), $(div).children('dd').text()]),
				),
			}
		})
}

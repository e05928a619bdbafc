import type { ReactNode } from 'react'
import { useI18n } from '#app/i18n/index.ts'
import { Notice } from '#app/ui/feedback.tsx'
import { ScrollTable } from '#app/ui/table.tsx'

/** One row of a per-row report: the row it came from, what was given, the outcome's code and its words. */
export interface ReportLine<O extends string> {
	row: number
	given: ReactNode
	outcome: O
	result: string
}

/**
 * The report after a list or CSV was handled (bulk invitations, enrollments): a count per outcome
 * in the order given, then one table row per input row. The pages say the words; this lays them out.
 * The result comes before what was given: on a phone the address takes the width that is left and
 * breaks, and the result stays in view instead of scrolling off with the table.
 */
export function RowReport<O extends string>({
	title,
	words,
	order,
	countLine,
	lines,
}: {
	title: string
	/** The columns' headings, from the page's catalogue. */
	words: { row: string; given: string; result: string }
	order: readonly O[]
	countLine: (outcome: O, count: string) => string
	lines: Array<ReportLine<O>>
}) {
	const t = useI18n()
	const counts = order
		.map((outcome) => ({ outcome, n: lines.filter((l) => l.outcome === outcome).length }))
		.filter((c) => c.n > 0)
	return (
		<section>
			<h2>{title}</h2>
			<Notice tone="ok">
				<ul>
					{counts.map((c) => (
						<li key={c.outcome}>{countLine(c.outcome, t.number(c.n))}</li>
					))}
				</ul>
			</Notice>
			<ScrollTable label={title}>
				<thead>
					<tr>
						<th scope="col">{words.row}</th>
						<th scope="col">{words.result}</th>
						<th scope="col">{words.given}</th>
					</tr>
				</thead>
				<tbody>
					{lines.map((l, i) => (
						<tr key={i} data-outcome={l.outcome}>
							<td>{t.number(l.row)}</td>
							<td>{l.result}</td>
							<td className="break">{l.given}</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</section>
	)
}

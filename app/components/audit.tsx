import { useI18n } from '#app/i18n/index.ts'
import type { AuditSummary, Person } from '#app/utils/audit-view.server.ts'

/** Who an audit row names: their name and email, or the stored id of an account that is gone. */
export function PersonName({ person }: { person: Person | null }) {
	if (!person) return <>—</>
	if ('id' in person) return <code>{person.id}</code>
	return (
		<>
			{person.name} <span className="break">&lt;{person.email}&gt;</span>
		</>
	)
}

/** An audit row's metadata as fields; stored keys and codes are shown as they are. */
export function AuditDetails({ details }: { details: Array<{ key: string; value: string | Person }> }) {
	if (details.length === 0) return <>—</>
	return (
		<dl className="details">
			{details.map(({ key, value }) => (
				<div key={key}>
					<dt>
						<code>{key}</code>
					</dt>
					<dd>{typeof value === 'string' ? value : <PersonName person={value} />}</dd>
				</div>
			))}
		</dl>
	)
}

/** An audit row told in words (grading rows), in the page's language; nothing for other rows. */
export function AuditSentence({ summary }: { summary: AuditSummary | null }) {
	const t = useI18n()
	if (!summary) return null
	const nodes: Record<string, React.ReactNode> = {
		...summary.values,
		...Object.fromEntries(Object.entries(summary.numbers).map(([k, n]) => [k, t.number(n)])),
		...Object.fromEntries(Object.entries(summary.people).map(([k, p]) => [k, <PersonName key={k} person={p} />])),
	}
	return <p className="audit-sentence">{t.rich(t.text(summary.key), nodes)}</p>
}

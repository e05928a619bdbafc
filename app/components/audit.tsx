import type { Person } from '#app/utils/audit-view.server.ts'

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

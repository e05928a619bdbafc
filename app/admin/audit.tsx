import { Fragment } from 'react'
import { useI18n, type I18n, type Messages } from '#app/i18n/index.ts'
import type { AuditField, AuditSummary, AuditValue, Person } from '#app/admin/audit-view.server.ts'
import type { AuditAction } from '#db/audit.ts'

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

// `user.role_changed` is labelled by `actions.user_role_changed`: catalogue keys hold no dots.
type LabelKey<A extends string> = A extends `${infer Head}.${infer Rest}` ? `${Head}_${LabelKey<Rest>}` : A

/** A label of the catalogue by a stored code, or null for a code it does not know. */
function labelOf(labels: Record<string, string>, code: string) {
	return Object.hasOwn(labels, code) ? labels[code] : null
}

function actionLabel(m: Messages, action: string) {
	// Every action the app writes has its label: tsc stops here when one is missing.
	const labels: Record<LabelKey<AuditAction>, string> = m.adminCourses.audit.actions
	return labelOf(labels, action.replaceAll('.', '_'))
}

/** What was done, in words, with the stored code beside it (the log's filter takes codes); an unknown code alone. */
export function AuditActionName({ action }: { action: string }) {
	const { m } = useI18n()
	const label = actionLabel(m, action)
	if (!label) return <code>{action}</code>
	return (
		<>
			{label} <code className="audit-code">{action}</code>
		</>
	)
}

/** What a row is about: its kind in words (the stored kind when unknown) and who or what it is. */
export function AuditTarget({ target }: { target: { kind: string; value: AuditValue | null } }) {
	const t = useI18n()
	const kind = labelOf(t.m.adminCourses.audit.targets, target.kind)
	return (
		<>
			<span className="audit-kind">{kind ?? <code>{target.kind}</code>}</span>
			{target.value ? (
				<>
					{' '}
					<Value value={target.value} t={t} />
				</>
			) : null}
		</>
	)
}

function FieldName({ name, t }: { name: string; t: I18n }) {
	const label = labelOf(t.m.adminCourses.audit.fields, name)
	return label ? <>{label}</> : <code>{name}</code>
}

/** A stored value in words of the page's language; text is shown as text, whatever it holds. */
function Value({ value, t }: { value: AuditValue; t: I18n }) {
	const m = t.m.adminCourses.audit
	switch (value.kind) {
		case 'person':
			return <PersonName person={value.person} />
		case 'course':
			return value.title ? <span lang={value.locale ?? undefined}>{value.title}</span> : <code>{value.slug}</code>
		case 'role':
			return <>{t.m.admin.roles[value.role]}</>
		case 'tenantStatus':
			return <>{t.m.admin.tenantStatuses[value.status]}</>
		case 'enrollmentStatus':
			return <>{t.m.admin.enrollmentStatuses[value.status]}</>
		case 'withdrawal':
			return <>{m.withdrawn[value.reason]}</>
		case 'yesNo':
			return <>{value.yes ? m.yes : m.no}</>
		case 'date':
			return <time dateTime={value.iso}>{t.date(value.iso)}</time>
		case 'number':
			return <>{t.number(value.n)}</>
		case 'text':
			return <span className="audit-text">{value.text}</span>
		case 'list':
			return (
				<>
					{value.items.map((item, i) => (
						<Fragment key={i}>
							{i > 0 ? ', ' : null}
							<Value value={item} t={t} />
						</Fragment>
					))}
					{value.more > 0 ? ` ${t.plural(m.more, value.more)}` : null}
				</>
			)
		case 'fields':
			return (
				<>
					{value.fields.map((field, i) => (
						<Fragment key={i}>
							{i > 0 ? '; ' : null}
							<FieldName name={field.key} t={t} />: <Value value={field.value} t={t} />
						</Fragment>
					))}
				</>
			)
		case 'none':
			return <>—</>
	}
}

/** An audit row's metadata as labelled fields; a key or code the catalogue does not know is shown as stored. */
export function AuditDetails({ details }: { details: AuditField[] }) {
	const t = useI18n()
	if (details.length === 0) return <>—</>
	return (
		<dl className="details">
			{details.map(({ key, value }, i) => (
				<div key={i}>
					<dt>
						<FieldName name={key} t={t} />
					</dt>
					<dd>
						<Value value={value} t={t} />
					</dd>
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

import { Form } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { useI18n } from '#app/i18n/index.ts'
import type { DueState } from './due-dates.ts'

export interface ExtensionRow {
	slug: string
	title: string
	state: DueState
	when: string
	dueLocal: string
	extended: boolean
}

/**
 * Course staff move one learner's due date on one entry (decision 0045): a plain POST form with the
 * new date and time in the learner's zone and a reason; its error beside the fields.
 */
export function ExtensionForm({ row, timeZone, error }: { row: ExtensionRow; timeZone: string; error: string | null }) {
	const t = useI18n()
	const m = t.m.adminCourses.dueDates
	const states = t.m.learning.due
	const id = (name: string) => `due-${row.slug}-${name}`
	const zone = timeZone.replaceAll('_', ' ')
	return (
		<Form method="post" className="stack">
			<h3>{row.title}</h3>
			<p>
				{m.due}: {row.when} ·{' '}
				<span className={row.state === 'overdue' ? 'badge badge-warn' : 'badge'}>
					{{ overdue: states.overdue, soon: states.soon, later: states.later, done: states.done }[row.state]}
				</span>
				{row.extended ? ` · ${m.extendedNote}` : ''}
			</p>
			<input type="hidden" name="intent" value="extend-due" />
			<input type="hidden" name="entry" value={row.slug} />
			<div className="field">
				<label htmlFor={id('at')}>{t.format(m.extendLabel, { zone })}</label>
				<input
					id={id('at')}
					name="dueAt"
					type="datetime-local"
					defaultValue={row.dueLocal}
					required
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? id('error') : undefined}
				/>
			</div>
			<div className="field">
				<label htmlFor={id('reason')}>{t.m.adminCourses.learner.reason}</label>
				<textarea id={id('reason')} name="reason" rows={2} maxLength={500} required />
			</div>
			{error ? (
				<p id={id('error')} className="field-error">
					{t.text(error)}
				</p>
			) : null}
			<Submit>{m.extend}</Submit>
		</Form>
	)
}

import { Link } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import type { DueLine } from './due-dates.server.ts'

/** The state of one due date as words and a badge class: overdue stands out, done is quiet. */
export function DueBadge({ line }: { line: Pick<DueLine, 'state' | 'when' | 'extended'> }) {
	const t = useI18n()
	const m = t.m.learning.due
	const label = { overdue: m.overdue, soon: m.soon, later: m.later, done: m.done }[line.state]
	const tone = line.state === 'overdue' ? 'badge badge-warn' : line.state === 'done' ? 'badge badge-ok' : 'badge'
	return (
		<span className="due">
			<span className={tone}>{label}</span>{' '}
			<span className="hint">
				{t.format(line.state === 'overdue' || line.state === 'done' ? m.wasDue : m.dueOn, { date: line.when })}
				{line.extended ? ` · ${m.extended}` : ''}
			</span>
		</span>
	)
}

/**
 * The learner's due dates (decision 0045): overdue and due soon on the dashboard, every due entry on
 * a course home. `showCourse` names each line's course (the dashboard lists several).
 */
export function DueList({
	lines,
	timeZone,
	showCourse = false,
	id = 'due-heading',
}: {
	lines: DueLine[]
	timeZone: string
	showCourse?: boolean
	id?: string
}) {
	const t = useI18n()
	const m = t.m.learning.due
	return (
		<section aria-labelledby={id} className="due-dates">
			<h2 id={id}>{m.title}</h2>
			{lines.length === 0 ? (
				<p className="empty">{m.none}</p>
			) : (
				<ul className="due-list">
					{lines.map((line) => (
						<li key={`${line.courseSlug}/${line.entrySlug}`}>
							<Link prefetch="intent" to={line.href}>
								{line.title}
							</Link>
							{showCourse ? <span className="hint"> · {line.course}</span> : null}
							<br />
							<DueBadge line={line} />
						</li>
					))}
				</ul>
			)}
			<p className="hint">
				{t.format(m.zone, { zone: timeZone.replaceAll('_', ' ') })}{' '}
				<Link to="/learn/account#due-settings">{m.changeZone}</Link>
			</p>
		</section>
	)
}

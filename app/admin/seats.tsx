import { useI18n } from '#app/i18n/index.ts'

/** A paid course's seats in use, and of how many when it has a limit (decision 0065). */
export function SeatsUsed({ seats }: { seats: { used: number; limit: number | null } }) {
	const t = useI18n()
	const m = t.m.adminCourses.settings
	return (
		<p data-seats-used={seats.used}>
			{seats.limit === null
				? t.format(m.seatsUsed, { used: t.number(seats.used) })
				: t.format(m.seatsOf, { used: t.number(seats.used), seats: t.number(seats.limit) })}
		</p>
	)
}

// A due date typed and shown in the school's time zone, named beside the field (issue 51, decision
// 0095): the site's `timeZone`, which the app sets when it provisions the site (its tenant's zone).
// Strapi's own date picker uses the zone of the author's computer. Stored as the instant Strapi's
// datetime stores (ISO, UTC), so the content API and the app read it as before.
import { useEffect, useState } from 'react'
import { Field, TextInput } from '@strapi/design-system'
import { useFetchClient, useForm } from '@strapi/strapi/admin'
import { useIntl } from 'react-intl'

const SITE = 'api::site.site'

// The conversion of the app's app/learning/due-dates.ts (wallClockInZone, instantInZone), written
// again: this file is bundled by Strapi's admin build of cms/strapi, which does not reach the app.
/** The zone's wall clock at `at` (ms), as a datetime-local value (`YYYY-MM-DDTHH:MM`). */
function wallClock(at, timeZone) {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
	}).formatToParts(new Date(at))
	const part = (type) => parts.find((p) => p.type === type).value
	return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`
}

/** The instant (ISO) at which the zone's clock reads `local` (a datetime-local value). */
function instantOf(local, timeZone) {
	const asUtc = Date.parse(`${local}:00Z`)
	if (Number.isNaN(asUtc)) return null
	const offset = (at) => Date.parse(`${wallClock(at, timeZone)}:00Z`) - at
	// The zone's offset at that moment, applied twice to settle across a daylight-saving change.
	const guess = asUtc - offset(asUtc)
	return new Date(asUtc - offset(guess)).toISOString()
}

// A site's zone by its key ('' for "the author's only site"), asked once per page load.
const zones = new Map()

/**
 * The zone of the document's site, or, when the form names none yet (a new course), of the author's
 * only site; UTC when the site has none or no single site is found; null until it is known.
 */
function useSiteZone() {
	const { get } = useFetchClient()
	const site = useForm('ZonedDateTime', (state) => state.values?.site) || ''
	const [zone, setZone] = useState(null)
	useEffect(() => {
		let current = true
		if (!zones.has(site)) {
			// An author reads only their own sites (the "own sites" condition): two answers mean no single one.
			const params = site ? { filters: { key: { $eq: site } }, locale: 'en' } : { page: 1, pageSize: 2, locale: 'en' }
			const asked = get(`/content-manager/collection-types/${SITE}`, { params }).then(({ data }) =>
				data.results.length === 1 ? data.results[0].timeZone || 'UTC' : 'UTC',
			)
			zones.set(site, asked)
			asked.catch(() => zones.delete(site))
		}
		// Not known (the site list unreadable): the field stays disabled rather than convert in a wrong zone.
		zones
			.get(site)
			.then((found) => current && setZone(found))
			.catch(() => {})
		return () => {
			current = false
		}
	}, [get, site])
	return zone
}

export function ZonedDateTimeInput({ name, label, hint, required, disabled, labelAction, value, error, onChange }) {
	const { formatMessage } = useIntl()
	const zone = useSiteZone()
	const local = zone && value ? wallClock(Date.parse(value), zone) : ''
	const where = zone
		? formatMessage({ id: 'lms.zonedDatetime.zone', defaultMessage: 'In the school’s time zone: {zone}' }, { zone })
		: ''
	return (
		<Field.Root
			name={name}
			id={name}
			error={error}
			required={required}
			hint={
				<>
					{hint} {where}
				</>
			}
		>
			<Field.Label action={labelAction}>{label}</Field.Label>
			<TextInput
				type="datetime-local"
				value={local}
				disabled={disabled || !zone}
				onChange={(event) => onChange(name, event.target.value ? instantOf(event.target.value, zone) : null)}
			/>
			<Field.Hint />
			<Field.Error />
		</Field.Root>
	)
}

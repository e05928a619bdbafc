// A due date typed and shown in the school's time zone, named beside the field (issue 51, decision
// 0095): the site's `timeZone`, which the app sets when it provisions the site (its tenant's zone).
// Strapi's own date picker uses the zone of the author's computer. Stored as the instant Strapi's
// datetime stores (ISO, UTC), so the content API and the app read it as before.
import { useEffect, useState } from 'react'
import { Field, TextInput } from '@strapi/design-system'
import { useFetchClient, useForm } from '@strapi/strapi/admin'
import { useIntl } from 'react-intl'

const SITE = 'api::site.site'

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

// The sites this author may read, by key, with their zones: asked once per page load.
let zonesBySite = null

/** The zone of the document's site (the author's only site when the form names none), or null while unknown. */
function useSiteZone() {
	const { get } = useFetchClient()
	const site = useForm('ZonedDateTime', (state) => state.values?.site)
	const [zones, setZones] = useState(null)
	useEffect(() => {
		let current = true
		zonesBySite ??= get(`/content-manager/collection-types/${SITE}`, {
			params: { page: 1, pageSize: 100, locale: 'en' },
		}).then(({ data }) => Object.fromEntries(data.results.map((s) => [s.key, s.timeZone || 'UTC'])))
		zonesBySite
			.then((found) => current && setZones(found))
			.catch(() => {
				zonesBySite = null
				if (current) setZones({})
			})
		return () => {
			current = false
		}
	}, [get])
	if (!zones) return null
	const keys = Object.keys(zones)
	return zones[site] ?? (keys.length === 1 ? zones[keys[0]] : 'UTC')
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

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { FormError, Submit } from '#app/ui/feedback.tsx'
import { SelectField, useActionForm } from '#app/ui/form.tsx'
import { useI18n } from '#app/i18n/index.ts'

export interface DueSettings {
	timeZone: string
	zones: string[]
	calendarUrl: string | null
}

/**
 * The zones grouped by region (issue 52: 400 zones in one list are not found): the zone in force
 * first, then UTC, then each region's cities under its heading ("America" › "Los Angeles").
 */
function zoneOptions(settings: DueSettings) {
	const name = (z: string) => z.replaceAll('_', ' ')
	const first = [...new Set([settings.timeZone, 'UTC'])].map((z) => ({ value: z, label: name(z) }))
	const rest = settings.zones
		.filter((z) => z.includes('/') && z !== settings.timeZone)
		.map((z) => {
			const slash = z.indexOf('/')
			return { value: z, label: name(z.slice(slash + 1)).replace('/', ' › '), group: z.slice(0, slash) }
		})
		.sort((a, b) => a.group.localeCompare(b.group) || a.label.localeCompare(b.label))
	return [...first, ...rest]
}

/**
 * The account page's "due dates and calendar" section (decision 0045): a plain select of IANA zones
 * and the private calendar address. The account page ships no script (decision 0019), so the
 * address is a read-only field to select and copy, with a webcal: link a phone opens in its
 * calendar; "new link" replaces it.
 */
export function DueSettingsSection({
	settings,
	result,
}: {
	settings: DueSettings
	result: (intent: string) => SubmissionResult<string[]> | undefined
}) {
	const { m } = useI18n()
	const text = m.accounts.dueSettings
	const [zoneForm, zoneFields] = useActionForm(result('time-zone'), { timeZone: settings.timeZone })
	const linkResult = result('calendar-link')
	const webcal = settings.calendarUrl?.replace(/^https?:/, 'webcal:')
	return (
		<section id="due-settings" className="stack" aria-labelledby="due-settings-heading">
			<h2 id="due-settings-heading">{text.heading}</h2>
			<Form method="post" className="stack" {...getFormProps(zoneForm)}>
				<FormError errors={zoneForm.errors} id={zoneForm.errorId} />
				<input type="hidden" name="intent" value="time-zone" />
				<p className="hint">{text.timeZoneHint}</p>
				<SelectField label={text.timeZoneLabel} meta={zoneFields.timeZone} options={zoneOptions(settings)} />
				<Submit>{text.saveTimeZone}</Submit>
			</Form>
			<p>{text.calendarIntro}</p>
			{settings.calendarUrl ? (
				<div className="field">
					<label htmlFor="calendar-url">{text.calendarLabel}</label>
					<input id="calendar-url" type="url" readOnly value={settings.calendarUrl} autoComplete="off" />
					<p>
						<a href={webcal}>{text.subscribe}</a>
					</p>
				</div>
			) : null}
			<Form method="post" className="stack">
				{linkResult?.error?.['']?.length ? <FormError errors={linkResult.error['']} /> : null}
				{settings.calendarUrl ? <p className="hint">{text.newLinkHint}</p> : null}
				<Submit name="intent" value="calendar-link" className={settings.calendarUrl ? 'button-secondary' : 'button'}>
					{settings.calendarUrl ? text.newLink : text.createLink}
				</Submit>
			</Form>
		</section>
	)
}

import { Form } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { Submit } from '#app/ui/feedback.tsx'
import type { ReminderKind } from '#db/schema/values.ts'

/**
 * The account page's reminder section (decision 0047): a box per kind, ticked while it is on. One
 * form: what is unticked when it is saved is turned off (the action's `reminders` intent).
 */
export function ReminderChoices({ choices }: { choices: Array<{ kind: ReminderKind; on: boolean }> }) {
	const text = useI18n().m.accounts.account
	return (
		<>
			<h2 id="reminders">{text.reminders}</h2>
			<Form method="post" className="stack" aria-labelledby="reminders">
				<input type="hidden" name="intent" value="reminders" />
				<fieldset className="stack">
					<legend>{text.remindersHint}</legend>
					{choices.map(({ kind, on }) => (
						<label key={kind} className="choice">
							<input type="checkbox" name="kinds" value={kind} defaultChecked={on} /> {text[`kind_${kind}`]}
						</label>
					))}
				</fieldset>
				<Submit>{text.remindersSave}</Submit>
			</Form>
		</>
	)
}

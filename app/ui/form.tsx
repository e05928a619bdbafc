import {
	getInputProps,
	getSelectProps,
	getTextareaProps,
	useForm,
	type FieldMetadata,
	type SubmissionResult,
} from '@conform-to/react'
import { useId, useState } from 'react'
import { useActionData, useLocation } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'

/** A labelled input with its error beside it, tied by aria-describedby; works without JavaScript. */
export function Field({
	label,
	meta,
	type = 'text',
	autoComplete,
	hint,
	inputMode,
	size,
}: {
	label: string
	meta: FieldMetadata<string>
	type?: 'text' | 'email' | 'password'
	autoComplete?: string
	hint?: string
	/** The keyboard a phone shows (`numeric` for a score): the action still validates. */
	inputMode?: 'numeric'
	size?: number
}) {
	return (
		<Labelled label={label} meta={meta} hint={hint}>
			{(describedBy) => (
				<input
					{...getInputProps(meta, { type, ariaAttributes: true })}
					key={meta.key}
					autoComplete={autoComplete}
					inputMode={inputMode}
					size={size}
					aria-describedby={describedBy}
				/>
			)}
		</Labelled>
	)
}

/** A labelled textarea with its hint and errors, as Field. */
export function TextAreaField({
	label,
	meta,
	hint,
	rows = 6,
	spellCheck,
}: {
	label: string
	meta: FieldMetadata<string>
	hint?: string
	rows?: number
	spellCheck?: boolean
}) {
	return (
		<Labelled label={label} meta={meta} hint={hint}>
			{(describedBy) => (
				<textarea
					{...getTextareaProps(meta, { ariaAttributes: true })}
					key={meta.key}
					rows={rows}
					autoComplete="off"
					spellCheck={spellCheck}
					aria-describedby={describedBy}
				/>
			)}
		</Labelled>
	)
}

/** The label, hint and errors around a control; the control gets the ids its aria-describedby names. */
function Labelled({
	label,
	meta,
	hint,
	children,
}: {
	label: string
	meta: FieldMetadata<string>
	hint?: string
	children: (describedBy: string | undefined) => React.ReactNode
}) {
	const errorId = meta.errors?.length ? meta.errorId : undefined
	const hintId = hint ? `${meta.id}-hint` : undefined
	return (
		<div className="field">
			<label htmlFor={meta.id}>{label}</label>
			{hint ? (
				<p id={hintId} className="hint">
					{hint}
				</p>
			) : null}
			{children([hintId, errorId].filter(Boolean).join(' ') || undefined)}
			<FieldErrors meta={meta} />
		</div>
	)
}

/** The field's errors beside it, under the id its control's aria-describedby names. */
function FieldErrors({ meta }: { meta: FieldMetadata<string> }) {
	const t = useI18n()
	if (!meta.errors?.length) return null
	return (
		<p id={meta.errorId} className="field-error">
			{meta.errors.map(t.text).join(' ')}
		</p>
	)
}

/** A password being chosen: the rules as its hint, and the browser asked to suggest one. */
export function NewPasswordField({ label, meta }: { label: string; meta: FieldMetadata<string> }) {
	const t = useI18n()
	return (
		<Field
			label={label}
			meta={meta}
			type="password"
			autoComplete="new-password"
			hint={t.m.accounts.fields.passwordHint}
		/>
	)
}

/**
 * A labelled select with its error beside it. Its form must give it a default value
 * (`useActionForm`'s second argument): conform's reset of a form (a new form id after a notice
 * or another form's answer) unselects a select that has none, and the form would post ''.
 */
export function SelectField({
	label,
	meta,
	options,
}: {
	label: string
	meta: FieldMetadata<string>
	/** `group`: options of one group, in order, are shown under its heading (an optgroup). */
	options: Array<{ value: string; label: string; group?: string }>
}) {
	const errorId = meta.errors?.length ? meta.errorId : undefined
	const option = (o: { value: string; label: string }) => (
		<option key={o.value} value={o.value}>
			{o.label}
		</option>
	)
	// Runs of options with the same group, in the order given.
	const runs: Array<{ group?: string; options: typeof options }> = []
	for (const o of options) {
		const last = runs.at(-1)
		if (last && last.group === o.group) last.options.push(o)
		else runs.push({ group: o.group, options: [o] })
	}
	return (
		<div className="field">
			<label htmlFor={meta.id}>{label}</label>
			<select {...getSelectProps(meta, { ariaAttributes: true })} key={meta.key} aria-describedby={errorId}>
				{runs.map((run, i) =>
					run.group ? (
						<optgroup key={`${run.group}-${i}`} label={run.group}>
							{run.options.map(option)}
						</optgroup>
					) : (
						run.options.map(option)
					),
				)}
			</select>
			<FieldErrors meta={meta} />
		</div>
	)
}

/**
 * A conform form validated by the route's zod schema in its action, the one
 * place it runs: the action's lastResult carries the field errors, with
 * JavaScript or without. The schema never ships to the browser (zod and its
 * bridge were a 37 KB gzip chunk on every page with a form; the JavaScript policy
 * in docs/decisions/0019-javascript-policy.md).
 */
export function useActionForm(
	lastResult: SubmissionResult<string[]> | null | undefined,
	defaultValue?: Record<string, string>,
) {
	return useForm<Record<string, string>>({ id: useFormGeneration(lastResult), lastResult, defaultValue })
}

/**
 * The form's id, new for each navigation that brings no action result: a redirect back to the
 * same page after a success (its notice) or a Cancel link. Conform resets a form whose id changes,
 * so the page shows it as it would load without JavaScript: the loader's values, no error left
 * from an earlier try. A submission answered with data (errors, a report) keeps the id of every
 * form on the page: the one posted shows its lastResult, the others keep what was typed or chosen.
 */
function useFormGeneration(lastResult: unknown) {
	const base = useId()
	const { key } = useLocation()
	// Any form of the page answered (this one or another): the others stay as the person left them,
	// a file they chose included, rather than being reset under their hands.
	const answered = useActionData() !== undefined
	const [seen, setSeen] = useState({ key, generation: 0 })
	let { generation } = seen
	if (seen.key !== key) {
		generation = lastResult || answered ? seen.generation : seen.generation + 1
		// State from the previous render, updated while rendering (React's pattern for it).
		setSeen({ key, generation })
	}
	return `${base}${generation}`
}

import type { SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Form, Link, useLocation, useNavigation, useSearchParams } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { NOTICES, readNotice, type NoticeName } from '#app/platform/notices.ts'
import type { Confirmation } from '#app/platform/forms.server.ts'

// Apart from the form fields (./form.tsx) so that pages with a button and no
// fields (the course home, entries) load no form library.

/** A submit button that says it is working while its form is being sent (with JavaScript; without it, the browser shows its own progress). */
export function Submit({
	children,
	name,
	value,
	className = 'button',
	disabled,
}: {
	children: React.ReactNode
	name?: string
	value?: string
	className?: string
	disabled?: boolean
}) {
	const navigation = useNavigation()
	const { m } = useI18n()
	// Only its own form's submission: a page may hold several forms (the invite page has three).
	const ref = useRef<HTMLButtonElement>(null)
	const [sentHere, setSentHere] = useState(false)
	useEffect(() => {
		const form = ref.current?.form
		if (!form) return
		const sent = () => setSentHere(true)
		form.addEventListener('submit', sent)
		return () => form.removeEventListener('submit', sent)
	}, [])
	// Forgotten once the navigation is over (state adjusted while rendering, as React advises).
	const [lastState, setLastState] = useState(navigation.state)
	if (navigation.state !== lastState) {
		setLastState(navigation.state)
		if (navigation.state === 'idle') setSentHere(false)
	}
	const pending =
		sentHere &&
		navigation.state === 'submitting' &&
		(value === undefined || navigation.formData?.get(name ?? '') === value)
	return (
		<button
			ref={ref}
			type="submit"
			className={className}
			name={name}
			value={value}
			disabled={disabled}
			aria-disabled={pending || undefined}
		>
			{pending ? m.common.working : children}
		</button>
	)
}

/** Every message box of the interface: a notice after a redirect, a form's error, a state the page is in. */
export function Notice({
	children,
	tone = 'info',
	id,
	role = tone === 'error' ? 'alert' : 'status',
}: {
	children: React.ReactNode
	tone?: 'info' | 'ok' | 'error'
	id?: string
	/** `note` for standing information that is no news (a live region would announce it on every page). */
	role?: 'alert' | 'status' | 'note'
}) {
	return (
		<div className={`notice notice-${tone}`} role={role} id={id}>
			{children}
		</div>
	)
}

/**
 * Errors that belong to the whole form (wrong password, rate limit, a refused
 * intent): catalogue keys, shown in the page's locale. `result` is an action's
 * `{ result }` for pages whose forms are bare buttons (no form library loaded).
 */
export function FormError({
	errors,
	result,
	id,
}: {
	errors?: string[]
	result?: SubmissionResult<string[]> | null
	id?: string
}) {
	const t = useI18n()
	const messages = errors ?? result?.error?.[''] ?? null
	if (!messages?.length) return null
	return (
		<Notice tone="error" id={id}>
			{messages.map((e) => (
				<p key={e}>{t.text(e)}</p>
			))}
		</Notice>
	)
}

/**
 * The notice a redirect carried (app/platform/notices.ts), if it is one of the
 * names this page accepts; else `fallback`. Its text is the catalogue's; a
 * notice that names something (`ref`) takes its `values` from the page's
 * loader (noticeValues), never from the URL, and without them is not shown.
 */
export function RedirectNotice({
	accept,
	values,
	fallback = null,
}: {
	accept: readonly NoticeName[]
	values?: Record<string, string> | null
	fallback?: React.ReactNode
}) {
	const t = useI18n()
	const [params] = useSearchParams()
	const name = readNotice(params, accept)
	if (!name) return fallback
	const notice = NOTICES[name]
	if ('ref' in notice && !values) return fallback
	return <Notice tone={notice.tone}>{'ref' in notice ? t.format(notice.text(t.m), values!) : notice.text(t.m)}</Notice>
}

/**
 * The second step of a destructive action (askToConfirm in forms.server.ts): what will happen,
 * the same fields posted again with `confirmed=yes`, and a way back that changes nothing.
 */
export function ConfirmStep({ confirm }: { confirm?: Confirmation | null }) {
	const t = useI18n()
	const location = useLocation()
	if (!confirm) return null
	const values = {
		...confirm.values,
		...Object.fromEntries(Object.entries(confirm.labels ?? {}).map(([k, key]) => [k, t.text(key)])),
	}
	return (
		<div className="notice notice-error confirm" role="alert">
			<p>
				<strong>{t.format(t.text(confirm.question), values)}</strong>
			</p>
			<Form method="post" className="actions">
				{Object.entries(confirm.fields).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				<input type="hidden" name="confirmed" value="yes" />
				<Submit>{t.format(t.text(confirm.button), values)}</Submit>
				{/* The way out changes nothing: a plain secondary button, never styled as the action asked about. */}
				<Link className="button button-secondary" to={location.pathname + location.search}>
					{confirm.keep ? t.text(confirm.keep) : t.m.common.confirm.cancel}
				</Link>
			</Form>
		</div>
	)
}

/**
 * A button that posts its hidden fields (an intent and what it acts on: a row's id, a course) and
 * nothing else: a row's resend, revoke or status change, with JavaScript or without.
 */
export function PostButton({
	fields,
	secondary,
	link,
	children,
}: {
	fields: Record<string, string>
	secondary?: boolean
	/** Drawn as a link, for a row's actions. */
	link?: boolean
	children: ReactNode
}) {
	const className = link ? 'link-button' : secondary ? 'button button-secondary' : 'button'
	return (
		<Form method="post">
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<button type="submit" className={className}>
				{children}
			</button>
		</Form>
	)
}

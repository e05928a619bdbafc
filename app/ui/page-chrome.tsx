import { useEffect, useRef } from 'react'
import { useNavigation } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import { LOCALE_NAMES, LOCALES } from '#app/i18n/locales.ts'

// What the document around every page does beside the page itself (app/root.tsx's Layout): the
// language switcher, and focus moved after an in-place navigation as a new page would put it.

/**
 * A plain form, so it works without JavaScript and always reloads the whole
 * page in the new language (routes/learn.locale.ts).
 */
export function LocaleSwitcher({ redirectTo }: { redirectTo: string }) {
	const { m, locale } = useI18n()
	return (
		<form method="post" action="/learn/locale" className="locale-switcher">
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<label htmlFor="locale-switcher">{m.common.switcher.label}</label>
			<select id="locale-switcher" name="locale" defaultValue={locale}>
				{LOCALES.map((l) => (
					<option key={l} value={l} lang={l}>
						{LOCALE_NAMES[l]}
					</option>
				))}
			</select>
			<button type="submit" className="button button-secondary">
				{m.common.switcher.submit}
			</button>
		</form>
	)
}

/**
 * Without JavaScript every submission loads a new page and the browser starts
 * at its top. With JavaScript, React Router swaps the page in place, so focus
 * is moved where a new page would put the reader: the first field in error,
 * else the form's error, else the page's heading (announced by screen readers).
 */
export function FocusAfterNavigation() {
	const navigation = useNavigation()
	const busy = useRef(false)
	useEffect(() => {
		if (navigation.state !== 'idle') {
			busy.current = true
			return
		}
		if (!busy.current || window.location.hash) return
		busy.current = false
		// Two frames later: conform renders the action's errors in an update of its own.
		let frame = requestAnimationFrame(() => {
			frame = requestAnimationFrame(() => {
				const main = document.getElementById('main')
				const target =
					main?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
					main?.querySelector<HTMLElement>('[role="alert"]') ??
					main?.querySelector<HTMLElement>('h1')
				if (!target) return
				if (!target.matches('input, select, textarea, button')) target.tabIndex = -1
				target.focus()
			})
		})
		return () => cancelAnimationFrame(frame)
	}, [navigation.state])
	return null
}

// The supported locales and how they appear in URLs. Shared by the URL map
// (app/routes.ts), the server entry and the browser. The list itself is the
// users.locale column's (db/schema/values.ts).
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../db/schema/values.ts'

export { DEFAULT_LOCALE, LOCALES, type Locale }

/** The non-default locales: each has its URL prefix (`/es/learn`); the default stays unprefixed. */
export const PREFIXED_LOCALES = LOCALES.filter((l) => l !== DEFAULT_LOCALE)

/** Each locale's name in its own language, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
	en: 'English',
	es: 'Español',
	fr: 'Français',
	de: 'Deutsch',
	pt: 'Português',
	zh: '中文',
}

export function isLocale(value: unknown): value is Locale {
	return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

const PREFIX = new RegExp(`^/(${PREFIXED_LOCALES.join('|')})(?=/|$)`)

/** `/es/learn` → `{ locale: 'es', path: '/learn' }`; an unprefixed path has locale null. */
export function splitLocalePath(pathname: string): { locale: Locale | null; path: string } {
	const match = PREFIX.exec(pathname)
	if (!match) return { locale: null, path: pathname }
	return { locale: match[1] as Locale, path: pathname.slice(match[0].length) || '/' }
}

/** The URL of an unprefixed path in a locale: `/learn` in es is `/es/learn`, in en `/learn`. */
export function localePath(locale: Locale, path: string) {
	if (locale === DEFAULT_LOCALE) return path
	return path === '/' ? `/${locale}` : path.startsWith('/?') ? `/${locale}${path.slice(1)}` : `/${locale}${path}`
}

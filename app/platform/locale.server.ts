import { serialize as serializeCookie } from 'cookie'
import Negotiator from 'negotiator'
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '#app/i18n/locales.ts'
import { memoizeByString } from './memo.ts'

/** Picks the best supported locale from an Accept-Language header (q-values honoured, `pt-BR` matches `pt`). */
export function negotiateLocale(acceptLanguage: string | null | undefined, cookieLocale?: string | null): Locale {
	if (isLocale(cookieLocale)) return cookieLocale
	return acceptLanguage ? fromAcceptLanguage(acceptLanguage) : DEFAULT_LOCALE
}

const fromAcceptLanguage = memoizeByString(
	(acceptLanguage): Locale =>
		// negotiator ranks by q-value then order, honours `*` and q=0, and matches `pt-BR` to `pt`.
		(new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language([...LOCALES]) as Locale | undefined) ??
		DEFAULT_LOCALE,
)

/** The visitor's chosen interface language, remembered for a year (read by the server entry's negotiation). */
export function localeCookie(locale: Locale, secure: boolean) {
	return serializeCookie('lms_locale', locale, { path: '/', maxAge: 31536000, sameSite: 'lax', httpOnly: true, secure })
}

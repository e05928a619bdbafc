import { DEFAULT_LOCALE, isLocale, type Locale } from '#app/i18n/locales.ts'
import { memoizeByString } from './memo.ts'

/** Picks the best supported locale from an Accept-Language header (q-values honoured, `pt-BR` matches `pt`). */
export function negotiateLocale(acceptLanguage: string | null | undefined, cookieLocale?: string | null): Locale {
	if (isLocale(cookieLocale)) return cookieLocale
	return acceptLanguage ? fromAcceptLanguage(acceptLanguage) : DEFAULT_LOCALE
}

const fromAcceptLanguage = memoizeByString((acceptLanguage): Locale => {
	const ranked = acceptLanguage
		.split(',')
		.map((part, index) => {
			const [tag, ...params] = part.trim().split(';')
			const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean)
			return { base: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index }
		})
		.filter((l) => l.q > 0)
		.sort((a, b) => b.q - a.q || a.index - b.index)
	return ranked.map((l) => l.base).find(isLocale) ?? DEFAULT_LOCALE
})

/** The visitor's chosen interface language, remembered for a year (read by the server entry's negotiation). */
export function localeCookie(locale: Locale, secure: boolean) {
	return `lms_locale=${locale}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`
}

import { DEFAULT_LOCALE, LOCALES, type Locale } from '#db/schema/values.ts'

export function isLocale(value: unknown): value is Locale {
	return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

/** Picks the best supported locale from an Accept-Language header (q-values honoured, `pt-BR` matches `pt`). */
export function negotiateLocale(acceptLanguage: string | null | undefined, cookieLocale?: string | null): Locale {
	if (isLocale(cookieLocale)) return cookieLocale
	if (!acceptLanguage) return DEFAULT_LOCALE
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
}

import { useI18n } from '#app/i18n/index.ts'
import type { Locale } from '#app/i18n/locales.ts'
import { Notice } from '../ui/feedback.tsx'

/**
 * Said above content the content service did not have in the page's locale
 * (it falls back to English): the reader learns which language they are
 * reading. The content itself carries `lang={served}`.
 */
export function ContentLanguage({ served }: { served: Locale }) {
	const t = useI18n()
	if (served === t.locale) return null
	return (
		<Notice tone="info" role="note">
			{t.format(t.m.common.contentLanguage, { requested: t.languageName(t.locale), served: t.languageName(served) })}
		</Notice>
	)
}

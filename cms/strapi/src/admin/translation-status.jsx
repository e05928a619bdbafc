// Which modules and entries of the course the version being edited still lacks (issue 51): a side
// panel of a course's edit view in every locale but en, listing them by their English titles
// (missing-translations.ts). Read from the stored versions, so it follows each save.
import { useEffect, useState } from 'react'
import { useIntl } from 'react-intl'
import { useFetchClient } from '@strapi/strapi/admin'
import { missingTranslations } from './missing-translations'

const COURSE = 'api::course.course'
const SOURCE = 'en'

export function TranslationStatusPanel({ model, documentId, document }) {
	const { get } = useFetchClient()
	const { formatMessage } = useIntl()
	const [missing, setMissing] = useState(null)
	const locale = document?.locale
	const shown = model === COURSE && Boolean(documentId) && Boolean(locale) && locale !== SOURCE
	// A save changes updatedAt: the stored versions are read again.
	const saved = document?.updatedAt
	useEffect(() => {
		if (!shown) return
		let current = true
		const read = (l) =>
			get(`/content-manager/collection-types/${model}/${documentId}`, { params: { locale: l } }).then(
				({ data }) => data?.data ?? null,
				() => null,
			)
		Promise.all([read(SOURCE), read(locale)]).then(([source, translation]) => {
			if (current) setMissing(source ? missingTranslations(source, translation) : null)
		})
		return () => {
			current = false
		}
	}, [get, shown, model, documentId, locale, saved])
	if (!shown || !missing) return null
	return {
		title: formatMessage({ id: 'lms.translationStatus.title', defaultMessage: 'Translation' }),
		content: missing.length ? (
			<div data-testid="translation-missing">
				<p style={{ margin: 0 }}>
					{formatMessage({
						id: 'lms.translationStatus.missing',
						defaultMessage: 'Not translated yet (learners read these in English):',
					})}
				</p>
				<ul style={{ margin: '4px 0 0', paddingLeft: 16, listStyle: 'disc' }}>
					{missing.map((x, i) => (
						<li key={i}>
							{x.entry
								? `${x.module} › ${x.entry}`
								: formatMessage(
										{ id: 'lms.translationStatus.wholeModule', defaultMessage: '{module} (the whole module)' },
										{ module: x.module },
									)}
						</li>
					))}
				</ul>
			</div>
		) : (
			<p style={{ margin: 0 }} data-testid="translation-complete">
				{formatMessage({
					id: 'lms.translationStatus.complete',
					defaultMessage: 'Every module and entry of the English version is translated.',
				})}
			</p>
		),
	}
}

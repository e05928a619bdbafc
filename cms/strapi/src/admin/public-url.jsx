// After publishing, where the course now lives (issue 51): a side panel of the course's edit view
// with its public page on the app, the Preview button's address (src/utils/preview.ts, asked for the
// published version) without its query (the preview flag and the author's link). Shown once a
// published version exists.
import { useEffect, useState } from 'react'
import { useIntl } from 'react-intl'
import { useFetchClient } from '@strapi/strapi/admin'

const COURSE = 'api::course.course'

export function PublicUrlPanel({ model, documentId, document }) {
	const { get } = useFetchClient()
	const { formatMessage } = useIntl()
	const [url, setUrl] = useState(null)
	// `modified`: published, with a draft changed since.
	const live = model === COURSE && Boolean(documentId) && ['published', 'modified'].includes(document?.status)
	const locale = document?.locale
	useEffect(() => {
		if (!live) {
			setUrl(null)
			return
		}
		let current = true
		get(`/content-manager/preview/url/${model}`, { params: { documentId, locale, status: 'published' } })
			.then(({ data }) => {
				if (!current || !data?.data?.url) return
				const address = new URL(data.data.url)
				address.search = ''
				setUrl(address.href)
			})
			.catch(() => current && setUrl(null))
		return () => {
			current = false
		}
	}, [get, live, model, documentId, locale])
	if (!live || !url) return null
	return {
		title: formatMessage({ id: 'lms.publicUrl.title', defaultMessage: 'Public page' }),
		content: (
			<p style={{ overflowWrap: 'anywhere', margin: 0 }}>
				{formatMessage({ id: 'lms.publicUrl.hint', defaultMessage: 'Learners find this course at' })}{' '}
				<a href={url} target="_blank" rel="noreferrer" data-testid="public-url">
					{url}
				</a>
			</p>
		),
	}
}

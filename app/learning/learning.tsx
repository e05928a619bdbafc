import { useI18n } from '#app/i18n/index.ts'
import { formatInstant } from '#app/i18n/format.ts'

/**
 * Shown on every page of a course while it is previewed: nothing is recorded. A course not published
 * yet says so first (issue 40); one opened from the CMS's Preview (`link`) says whom it is for and
 * until when (decision 0100).
 */
export function PreviewBanner({
	draft = false,
	link = null,
}: {
	draft?: boolean
	link?: { author: string; until: string; timeZone: string } | null
}) {
	const t = useI18n()
	const m = t.m
	return (
		<div className={draft ? 'banner banner-preview banner-draft' : 'banner banner-preview'} role="status">
			{draft ? (
				<p>
					<strong>{m.common.preview.draftTitle}</strong> {m.common.preview.draftBody}
				</p>
			) : null}
			<p>
				<strong>{m.common.preview.title}</strong> {m.common.preview.body}
			</p>
			{link ? (
				<p>
					{t.format(m.common.preview.link, {
						author: link.author,
						until: formatInstant(new Date(link.until), t.locale, link.timeZone),
					})}
				</p>
			) : null}
		</div>
	)
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
	const t = useI18n()
	return (
		<div className="progress">
			{/* The text beside it says the same: a screen reader hears it once, not as a bar and again as text. */}
			<progress max={100} value={percent} aria-hidden="true">
				{t.percent(percent)}
			</progress>
			<span>{`${t.percent(percent)} · ${label}`}</span>
		</div>
	)
}

import { useI18n } from '#app/i18n/index.ts'

/** Shown on every page of a course while staff preview it: nothing is recorded. */
/** Staff previewing; a course not published yet says so first (issue 40). */
export function PreviewBanner({ draft = false }: { draft?: boolean }) {
	const { m } = useI18n()
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

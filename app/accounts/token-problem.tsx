import { useI18n } from '#app/i18n/index.ts'

/** The friendly page for an expired, used or unknown link. */
export function TokenProblem({
	reason,
	retryHref,
	retryLabel,
	invalid,
}: {
	reason: 'invalid' | 'expired' | 'used'
	retryHref: string
	retryLabel: string
	/** What an unknown link of this kind says instead of the general text (an invitation's may have been revoked or replaced). */
	invalid?: { title: string; body: string }
}) {
	const t = useI18n()
	const text = t.m.common.token
	const { title, body } = {
		expired: { title: text.expiredTitle, body: text.expired },
		used: { title: text.usedTitle, body: text.used },
		invalid: invalid ?? { title: text.invalidTitle, body: text.invalid },
	}[reason]
	return (
		<section className="narrow">
			<h1>{title}</h1>
			<p>{body}</p>
			<p>
				<a className="button" href={t.href(retryHref)}>
					{retryLabel}
				</a>
			</p>
		</section>
	)
}

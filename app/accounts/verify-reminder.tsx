import type { SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { useI18n } from '#app/i18n/index.ts'

/**
 * The reminder for a learner whose address is not confirmed, with a plain form that mails a new link
 * (the dashboard shows it too, posting here).
 */
export function VerifyReminder({ result }: { result?: SubmissionResult<string[]> }) {
	const t = useI18n()
	const text = t.m.accounts.account
	return (
		<Notice tone="info" role="note">
			<Form method="post" action={t.href('/learn/account')} className="stack">
				<p>{text.unverified}</p>
				<FormError result={result} />
				<Submit name="intent" value="resend-verification" className="button-secondary">
					{text.resendVerification}
				</Submit>
			</Form>
		</Notice>
	)
}

import { Form, Link } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { useI18n } from '#app/i18n/index.ts'

/**
 * Revoking a certificate, asked first: the reason, with its error beside it, and the button that
 * revokes. A plain form of its own (the field markup of app/ui/form.tsx without conform's
 * client code), so the admin list stays within the page-weight budget.
 */
export function RevokeStep({
	id,
	name,
	error,
	cancelTo,
}: {
	id: string
	name: string
	/** A catalogue key: the reason's error from the action. */
	error?: string
	cancelTo: string
}) {
	const t = useI18n()
	const m = t.m.certificates.admin
	return (
		<Form method="post" className="stack confirm notice notice-error">
			<h2>{t.format(m.revokeTitle, { name })}</h2>
			<input type="hidden" name="intent" value="revoke" />
			<input type="hidden" name="id" value={id} />
			<input type="hidden" name="confirmed" value="yes" />
			<div className="field">
				<label htmlFor="revoke-reason">{m.reason}</label>
				<textarea
					id="revoke-reason"
					name="reason"
					rows={3}
					maxLength={500}
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? 'revoke-reason-error' : undefined}
				/>
				{error ? (
					<p id="revoke-reason-error" className="field-error">
						{t.text(error)}
					</p>
				) : null}
			</div>
			<div className="actions">
				<Submit>{m.confirmRevoke}</Submit>
				<Link to={cancelTo}>{m.cancel}</Link>
			</div>
		</Form>
	)
}

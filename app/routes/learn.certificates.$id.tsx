import { getRequestContext } from '#app/context.ts'
import { CertificateDocument } from '#app/certificates/certificate.tsx'
import { PUBLIC_ID } from '#app/certificates/verify.server.ts'
import { linkedInAddToProfile } from '#app/certificates/linkedin.ts'
import { certificateView } from '#app/certificates/view.server.ts'
import { Notice } from '#app/ui/feedback.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { requireSession } from '#app/accounts/auth.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { certificateByPublicId } from '#app/certificates/records.server.ts'
import type { Route } from './+types/learn.certificates.$id.ts'

/**
 * The learner's own certificate: the printable document with the QR code of its verification
 * address, the credential to download, and the LinkedIn link. HTML and CSS only (it prints without
 * a script). Anyone else's certificate, or another tenant's, is 404: its public page is the
 * verification page.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { user } = requireSession(context)
	const ctx = getRequestContext(context)
	if (!ctx.tenant || !PUBLIC_ID.test(params.id)) throw notFound()
	const certificate = await certificateByPublicId(ctx.db, ctx.tenant.id, params.id)
	if (!certificate || certificate.user_id !== user.id) throw notFound()
	const view = certificateView(certificate)
	return {
		certificate: view,
		revokedAt: certificate.revoked_at?.toISOString() ?? null,
		reissued: certificate.revoked_reason === 'reissued',
		credentialHref: `/certificates/${certificate.public_id}/credential`,
		linkedIn: linkedInAddToProfile({
			name: view.courseTitle,
			organizationName: view.issuerName,
			issuedAt: certificate.issued_at,
			certUrl: view.verifyUrl,
			certId: view.publicId,
		}),
	}
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
	const m = metaI18n(matches).m.certificates.page
	return [{ title: m.metaTitle.replace('{course}', loaderData?.certificate.courseTitle ?? '') }]
}

export default function LearnerCertificate({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.certificates.page
	return (
		<div className="certificate-page">
			{d.revokedAt ? (
				<Notice tone="error">
					{t.format(m.revoked, { date: t.day(d.revokedAt) })} {d.reissued ? m.reissued : null}
				</Notice>
			) : null}
			<CertificateDocument c={d.certificate} />
			<section className="certificate-actions" aria-labelledby="share-heading">
				<h2 id="share-heading">{m.share}</h2>
				<p className="hint">{m.print}</p>
				<ul>
					<li>
						<a href={d.certificate.verifyUrl}>{m.verify}</a>
					</li>
					<li>
						<a href={d.credentialHref} download={`certificate-${d.certificate.publicId}.json`}>
							{m.download}
						</a>
					</li>
					{d.revokedAt ? null : (
						<li>
							<a href={d.linkedIn} rel="noopener noreferrer" target="_blank">
								{m.linkedin}
							</a>
						</li>
					)}
					<li>
						<a href={t.href('/learn/dashboard')}>{m.back}</a>
					</li>
				</ul>
			</section>
		</div>
	)
}

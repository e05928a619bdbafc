import { useI18n } from '#app/i18n/index.ts'

/** What a certificate shows, as its page's loader hands it over. */
export interface CertificateView {
	publicId: string
	recipientName: string
	courseTitle: string
	issuerName: string
	issuedAt: string
	verifyUrl: string
	/** The QR code of `verifyUrl`: one SVG path on a square of `size` modules. */
	qr: { size: number; d: string }
}

/**
 * The certificate as it is printed: a plain document (no script), laid out for A4 and Letter alike
 * by the print rules of app.css (`.certificate`). Names and titles are text, never markup.
 */
export function CertificateDocument({ c }: { c: CertificateView }) {
	const t = useI18n()
	const m = t.m.certificates.document
	return (
		<article className="certificate" aria-labelledby="certificate-heading">
			<p className="certificate-issuer">{c.issuerName}</p>
			<h1 id="certificate-heading">{m.heading}</h1>
			<p>{m.certifies}</p>
			<p className="certificate-name">{c.recipientName}</p>
			<p>{m.completed}</p>
			<p className="certificate-course">{c.courseTitle}</p>
			<p>{t.format(m.issuedBy, { issuer: c.issuerName, date: t.day(c.issuedAt) })}</p>
			<div className="certificate-verify">
				<svg
					className="certificate-qr"
					viewBox={`0 0 ${c.qr.size} ${c.qr.size}`}
					role="img"
					aria-label={m.qrLabel}
					shapeRendering="crispEdges"
				>
					<rect width={c.qr.size} height={c.qr.size} fill="#fff" />
					<path d={c.qr.d} fill="#000" />
				</svg>
				<p>
					{m.verifyAt}
					<br />
					<a href={c.verifyUrl} className="certificate-url">
						{c.verifyUrl}
					</a>
					<br />
					<small>{t.format(m.id, { id: c.publicId })}</small>
				</p>
			</div>
		</article>
	)
}

import type { Certificate } from '#db/certificates.ts'
import type { CertificateView } from './certificate.tsx'
import { qrPath } from './qr.server.ts'

/** The signed credential's own words: what a page shows is what was signed. */
function signedFields(certificate: Certificate) {
	const credential = JSON.parse(certificate.credential_json) as { id: string; issuer: { name: string } }
	return { verifyUrl: credential.id, issuerName: credential.issuer.name }
}

export function certificateView(certificate: Certificate): CertificateView {
	const signed = signedFields(certificate)
	return {
		publicId: certificate.public_id,
		recipientName: certificate.recipient_name,
		courseTitle: certificate.course_title,
		issuerName: signed.issuerName,
		issuedAt: certificate.issued_at.toISOString(),
		verifyUrl: signed.verifyUrl,
		qr: qrPath(signed.verifyUrl),
	}
}

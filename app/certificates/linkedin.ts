/**
 * LinkedIn's "Add to profile" link for a certification, with its fields filled in: the course as the
 * certification's name, the issuer, the month it was issued, the verification URL and the id.
 */
export function linkedInAddToProfile(c: {
	name: string
	organizationName: string
	issuedAt: Date
	certUrl: string
	certId: string
}) {
	const query = new URLSearchParams({
		startTask: 'CERTIFICATION_NAME',
		name: c.name,
		organizationName: c.organizationName,
		issueYear: String(c.issuedAt.getUTCFullYear()),
		issueMonth: String(c.issuedAt.getUTCMonth() + 1),
		certUrl: c.certUrl,
		certId: c.certId,
	})
	return `https://www.linkedin.com/profile/add?${query}`
}

// The certificate rows routes read, reached through the certificates room: routes never import db/
// (eslint.config.js), and these reads need no more than the repository's queries.
export {
	certificateByPublicId,
	courseCertificate,
	courseCertificates,
	statusListExists,
	userCertificates,
} from '#db/certificates.ts'

// The certificates room's mail, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}` and `{course}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type CertificateEmailKind =
	// Certificates (decision 0038): to the learner, when a course gives them one.
	'certificate_issued'

export const CERTIFICATE_EMAILS: EmailCopies<CertificateEmailKind> = {
	en: {
		certificate_issued: {
			subject: 'Your certificate is ready',
			body: 'Congratulations! You passed {course}. Your certificate is ready to view, print and share.',
			action: 'View your certificate',
			footer: 'Anyone can check it at the verification link printed on it.',
		},
	},
	es: {
		certificate_issued: {
			subject: 'Tu certificado está listo',
			body: '¡Enhorabuena! Has aprobado {course}. Tu certificado está listo para verlo, imprimirlo y compartirlo.',
			action: 'Ver tu certificado',
			footer: 'Cualquiera puede comprobarlo en el enlace de verificación impreso en él.',
		},
	},
	fr: {
		certificate_issued: {
			subject: 'Votre certificat est prêt',
			body: 'Félicitations ! Vous avez réussi {course}. Votre certificat est prêt à être consulté, imprimé et partagé.',
			action: 'Voir votre certificat',
			footer: 'Chacun peut le vérifier grâce au lien de vérification imprimé dessus.',
		},
	},
	de: {
		certificate_issued: {
			subject: 'Ihr Zertifikat ist bereit',
			body: 'Herzlichen Glückwunsch! Sie haben {course} bestanden. Ihr Zertifikat kann jetzt angesehen, gedruckt und geteilt werden.',
			action: 'Zertifikat ansehen',
			footer: 'Jeder kann es über den aufgedruckten Prüflink verifizieren.',
		},
	},
	pt: {
		certificate_issued: {
			subject: 'Seu certificado está pronto',
			body: 'Parabéns! Você foi aprovado em {course}. Seu certificado está pronto para ver, imprimir e compartilhar.',
			action: 'Ver seu certificado',
			footer: 'Qualquer pessoa pode conferi-lo no link de verificação impresso nele.',
		},
	},
	zh: {
		certificate_issued: {
			subject: '您的证书已准备好',
			body: '恭喜！您已通过 {course}。您的证书现在可以查看、打印和分享。',
			action: '查看您的证书',
			footer: '任何人都可以通过证书上印有的验证链接进行核验。',
		},
	},
}

// The admin room's mail, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}` and `{course}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type AdminEmailKind =
	// An admin enrolled the learner (decision 0040), in the learner's locale, with the course's link.
	'enrolled_by_admin'

export const ADMIN_EMAILS: EmailCopies<AdminEmailKind> = {
	en: {
		enrolled_by_admin: {
			subject: 'You are enrolled in a course',
			body: 'An administrator of {site} enrolled you in {course}.',
			action: 'Open the course',
			footer: 'You receive this email because you were enrolled in this course.',
		},
	},
	es: {
		enrolled_by_admin: {
			subject: 'Te han inscrito en un curso',
			body: 'Un administrador de {site} te ha inscrito en {course}.',
			action: 'Abrir el curso',
			footer: 'Recibes este correo porque te han inscrito en este curso.',
		},
	},
	fr: {
		enrolled_by_admin: {
			subject: 'Vous êtes inscrit à un cours',
			body: 'Un administrateur de {site} vous a inscrit au cours {course}.',
			action: 'Ouvrir le cours',
			footer: 'Vous recevez ce courriel parce que vous avez été inscrit à ce cours.',
		},
	},
	de: {
		enrolled_by_admin: {
			subject: 'Sie wurden in einen Kurs eingeschrieben',
			body: 'Eine Administratorin oder ein Administrator von {site} hat Sie in {course} eingeschrieben.',
			action: 'Kurs öffnen',
			footer: 'Sie erhalten diese E-Mail, weil Sie in diesen Kurs eingeschrieben wurden.',
		},
	},
	pt: {
		enrolled_by_admin: {
			subject: 'Foi inscrito num curso',
			body: 'Um administrador de {site} inscreveu-o em {course}.',
			action: 'Abrir o curso',
			footer: 'Recebe este email porque foi inscrito neste curso.',
		},
	},
	zh: {
		enrolled_by_admin: {
			subject: '您已被注册到课程',
			body: '{site} 的管理员已为您注册课程 {course}。',
			action: '打开课程',
			footer: '您收到此邮件是因为您已被注册到此课程。',
		},
	},
}

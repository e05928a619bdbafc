// The accounts room's invitation mails, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}`, `{role}` and `{courses}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type InvitationEmailKind =
	| 'invitation'
	// An invitation that enrolls in courses on acceptance (decision 0040): it names them.
	| 'invitation_courses'

export const INVITATION_EMAILS: EmailCopies<InvitationEmailKind> = {
	en: {
		invitation: {
			subject: 'You are invited',
			body: 'You have been invited to join {site} as {role}.',
			action: 'Accept invitation',
			footer: 'The invitation works for 7 days.',
		},
		invitation_courses: {
			subject: 'You are invited, with a course',
			body: 'You have been invited to join {site} as {role}. On accepting you are enrolled in: {courses}.',
			action: 'Accept invitation',
			footer: 'The invitation works for 7 days.',
		},
	},
	es: {
		invitation: {
			subject: 'Tienes una invitación',
			body: 'Te han invitado a unirte a {site} como {role}.',
			action: 'Aceptar la invitación',
			footer: 'La invitación es válida durante 7 días.',
		},
		invitation_courses: {
			subject: 'Te han invitado, con un curso',
			body: 'Te han invitado a unirte a {site} como {role}. Al aceptar quedarás inscrito en: {courses}.',
			action: 'Aceptar la invitación',
			footer: 'La invitación es válida durante 7 días.',
		},
	},
	fr: {
		invitation: {
			subject: 'Vous êtes invité',
			body: 'Vous avez été invité à rejoindre {site} en tant que {role}.',
			action: "Accepter l'invitation",
			footer: "L'invitation est valable 7 jours.",
		},
		invitation_courses: {
			subject: 'Vous êtes invité, avec un cours',
			body: 'Vous avez été invité à rejoindre {site} en tant que {role}. En acceptant, vous serez inscrit à : {courses}.',
			action: "Accepter l'invitation",
			footer: "L'invitation est valable 7 jours.",
		},
	},
	de: {
		invitation: {
			subject: 'Sie wurden eingeladen',
			body: 'Sie wurden eingeladen, {site} als {role} beizutreten.',
			action: 'Einladung annehmen',
			footer: 'Die Einladung ist 7 Tage gültig.',
		},
		invitation_courses: {
			subject: 'Sie wurden eingeladen, mit einem Kurs',
			body: 'Sie wurden eingeladen, {site} als {role} beizutreten. Mit der Annahme werden Sie eingeschrieben in: {courses}.',
			action: 'Einladung annehmen',
			footer: 'Die Einladung ist 7 Tage gültig.',
		},
	},
	pt: {
		invitation: {
			subject: 'Recebeu um convite',
			body: 'Foi convidado para se juntar a {site} como {role}.',
			action: 'Aceitar o convite',
			footer: 'O convite é válido por 7 dias.',
		},
		invitation_courses: {
			subject: 'Foi convidado, com um curso',
			body: 'Foi convidado para se juntar a {site} como {role}. Ao aceitar, fica inscrito em: {courses}.',
			action: 'Aceitar o convite',
			footer: 'O convite é válido por 7 dias.',
		},
	},
	zh: {
		invitation: {
			subject: '您收到了一份邀请',
			body: '您受邀以{role}身份加入 {site}。',
			action: '接受邀请',
			footer: '此邀请 7 天内有效。',
		},
		invitation_courses: {
			subject: '您受邀加入，并附带课程',
			body: '您受邀以{role}身份加入 {site}。接受后您将注册以下课程：{courses}。',
			action: '接受邀请',
			footer: '此邀请 7 天内有效。',
		},
	},
}

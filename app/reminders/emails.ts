// The reminders room's mails, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}`, `{course}`, `{unsubscribe}` and the announcement's `{subject}` and `{message}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type ReminderEmailKind =
	// Reminders (decision 0047): after a spell without activity in a course, before a due date, and course staff's
	// announcements; each carries its unsubscribe link ({unsubscribe}) and List-Unsubscribe headers.
	'reminder_inactivity' | 'reminder_due' | 'announcement'

export const REMINDER_EMAILS: EmailCopies<ReminderEmailKind> = {
	en: {
		reminder_inactivity: {
			subject: 'Pick up where you left off in {course}',
			body: 'You have not been back to {course} at {site} for {days} days. Your place is kept: a few minutes today keep the course going.',
			action: 'Continue the course',
			footer: 'You get this once per spell of inactivity. Stop these reminders: {unsubscribe}',
		},
		reminder_due: {
			subject: 'Due soon in {course}: {entry}',
			body: '{entry} in {course} is due {due}.',
			action: 'Open it',
			footer: 'Stop due-date reminders: {unsubscribe}',
		},
		announcement: {
			subject: '{course}: {subject}',
			body: '{message}',
			action: 'Open the course',
			footer: 'Sent by the staff of {course} to its learners. Stop announcements: {unsubscribe}',
		},
	},
	es: {
		reminder_inactivity: {
			subject: 'Retoma {course} donde lo dejaste',
			body: 'Hace {days} días que no vuelves a {course} en {site}. Tu lugar se mantiene: unos minutos hoy mantienen el curso en marcha.',
			action: 'Continuar el curso',
			footer:
				'Recibes esto una vez por cada periodo de inactividad. Dejar de recibir estos recordatorios: {unsubscribe}',
		},
		reminder_due: {
			subject: 'Vence pronto en {course}: {entry}',
			body: '{entry} de {course} vence {due}.',
			action: 'Abrir',
			footer: 'Dejar de recibir recordatorios de fechas límite: {unsubscribe}',
		},
		announcement: {
			subject: '{course}: {subject}',
			body: '{message}',
			action: 'Abrir el curso',
			footer: 'Enviado por el equipo de {course} a sus estudiantes. Dejar de recibir anuncios: {unsubscribe}',
		},
	},
	fr: {
		reminder_inactivity: {
			subject: 'Reprenez {course} là où vous l’avez laissé',
			body: 'Vous n’êtes pas revenu à {course} sur {site} depuis {days} jours. Votre place est gardée : quelques minutes aujourd’hui suffisent pour avancer.',
			action: 'Continuer le cours',
			footer: 'Vous recevez ce message une fois par période d’inactivité. Ne plus recevoir ces rappels : {unsubscribe}',
		},
		reminder_due: {
			subject: 'Échéance proche dans {course} : {entry}',
			body: '{entry} dans {course} est à rendre {due}.',
			action: 'Ouvrir',
			footer: 'Ne plus recevoir les rappels d’échéance : {unsubscribe}',
		},
		announcement: {
			subject: '{course} : {subject}',
			body: '{message}',
			action: 'Ouvrir le cours',
			footer: 'Envoyé par l’équipe de {course} à ses apprenants. Ne plus recevoir les annonces : {unsubscribe}',
		},
	},
	de: {
		reminder_inactivity: {
			subject: 'Machen Sie in {course} weiter',
			body: 'Sie waren seit {days} Tagen nicht mehr in {course} bei {site}. Ihr Platz bleibt erhalten: ein paar Minuten heute halten den Kurs in Gang.',
			action: 'Kurs fortsetzen',
			footer: 'Diese Nachricht kommt einmal pro Zeit ohne Aktivität. Diese Erinnerungen abbestellen: {unsubscribe}',
		},
		reminder_due: {
			subject: 'Bald fällig in {course}: {entry}',
			body: '{entry} in {course} ist {due} fällig.',
			action: 'Öffnen',
			footer: 'Erinnerungen an Fristen abbestellen: {unsubscribe}',
		},
		announcement: {
			subject: '{course}: {subject}',
			body: '{message}',
			action: 'Kurs öffnen',
			footer: 'Vom Team von {course} an die Lernenden gesendet. Ankündigungen abbestellen: {unsubscribe}',
		},
	},
	pt: {
		reminder_inactivity: {
			subject: 'Continue {course} de onde parou',
			body: 'Você não volta a {course} em {site} há {days} dias. Seu lugar está guardado: alguns minutos hoje mantêm o curso em andamento.',
			action: 'Continuar o curso',
			footer: 'Você recebe isto uma vez por período de inatividade. Deixar de receber estes lembretes: {unsubscribe}',
		},
		reminder_due: {
			subject: 'Prazo próximo em {course}: {entry}',
			body: '{entry} em {course} vence {due}.',
			action: 'Abrir',
			footer: 'Deixar de receber lembretes de prazo: {unsubscribe}',
		},
		announcement: {
			subject: '{course}: {subject}',
			body: '{message}',
			action: 'Abrir o curso',
			footer: 'Enviado pela equipe de {course} aos seus alunos. Deixar de receber anúncios: {unsubscribe}',
		},
	},
	zh: {
		reminder_inactivity: {
			subject: '继续学习 {course}',
			body: '您已有 {days} 天没有回到 {site} 上的 {course}。您的进度已保存：今天花几分钟就能继续。',
			action: '继续课程',
			footer: '每段未活动期间您只会收到一次此邮件。退订此类提醒：{unsubscribe}',
		},
		reminder_due: {
			subject: '{course} 即将到期：{entry}',
			body: '{course} 中的 {entry} 将于 {due} 到期。',
			action: '打开',
			footer: '退订截止日期提醒：{unsubscribe}',
		},
		announcement: {
			subject: '{course}：{subject}',
			body: '{message}',
			action: '打开课程',
			footer: '由 {course} 的教学人员发送给学员。退订公告：{unsubscribe}',
		},
	},
}

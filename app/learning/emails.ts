// The learning room's mails, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}` and the grading mails' `{course}`, `{entry}` and `{learner}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type LearningEmailKind =
	// Grading (decision 0028): to the learner, and to staff who opted into hand-in notices.
	| 'submission_graded'
	| 'submission_returned'
	| 'submission_received'
	// Second chances (decision 0037): to the learner, when course staff give them more attempts or reopen their work.
	| 'attempts_granted'
	| 'assignment_reopened'

export const LEARNING_EMAILS: EmailCopies<LearningEmailKind> = {
	en: {
		submission_graded: {
			subject: 'Your work has been graded',
			body: 'Your work on “{entry}” in {course} has been graded.',
			action: 'See your grade and feedback',
			footer: 'You receive this email because you handed in this work.',
		},
		submission_returned: {
			subject: 'Your work was returned for revision',
			body: 'Your work on “{entry}” in {course} was returned for revision. Read the feedback and hand it in again.',
			action: 'Read the feedback',
			footer: 'You receive this email because you handed in this work.',
		},
		submission_received: {
			subject: 'New work to grade',
			body: '{learner} handed in “{entry}” in {course}.',
			action: 'Open the grading page',
			footer:
				'You receive this email because you asked to be told of hand-ins to this course. Turn it off on the course’s submissions page.',
		},
		attempts_granted: {
			subject: 'You have more attempts at a quiz',
			body: 'Course staff gave you more attempts at “{entry}” in {course}.',
			action: 'Try the quiz again',
			footer: 'You receive this email because you are enrolled in this course.',
		},
		assignment_reopened: {
			subject: 'Your assignment is open again',
			body: 'Course staff reopened “{entry}” in {course}: you may hand in a new version.',
			action: 'Hand in a new version',
			footer: 'You receive this email because you are enrolled in this course.',
		},
	},
	es: {
		submission_graded: {
			subject: 'Tu trabajo ha sido calificado',
			body: 'Tu trabajo en «{entry}» del curso {course} ha sido calificado.',
			action: 'Ver la nota y los comentarios',
			footer: 'Recibes este mensaje porque entregaste este trabajo.',
		},
		submission_returned: {
			subject: 'Tu trabajo se ha devuelto para revisión',
			body: 'Tu trabajo en «{entry}» del curso {course} se ha devuelto para que lo revises. Lee los comentarios y vuelve a entregarlo.',
			action: 'Leer los comentarios',
			footer: 'Recibes este mensaje porque entregaste este trabajo.',
		},
		submission_received: {
			subject: 'Nuevo trabajo por calificar',
			body: '{learner} ha entregado «{entry}» del curso {course}.',
			action: 'Abrir la página de calificación',
			footer:
				'Recibes este mensaje porque pediste avisos de las entregas de este curso. Puedes desactivarlos en la página de entregas del curso.',
		},
		attempts_granted: {
			subject: 'Tienes más intentos en un cuestionario',
			body: 'El equipo del curso te ha dado más intentos en «{entry}» del curso {course}.',
			action: 'Volver a intentar el cuestionario',
			footer: 'Recibes este mensaje porque estás inscrito en este curso.',
		},
		assignment_reopened: {
			subject: 'Tu tarea está abierta de nuevo',
			body: 'El equipo del curso ha reabierto «{entry}» del curso {course}: puedes entregar una nueva versión.',
			action: 'Entregar una nueva versión',
			footer: 'Recibes este mensaje porque estás inscrito en este curso.',
		},
	},
	fr: {
		submission_graded: {
			subject: 'Votre travail a été noté',
			body: 'Votre travail sur « {entry} » du cours {course} a été noté.',
			action: 'Voir la note et les commentaires',
			footer: 'Vous recevez cet e-mail parce que vous avez rendu ce travail.',
		},
		submission_returned: {
			subject: 'Votre travail vous a été renvoyé pour révision',
			body: 'Votre travail sur « {entry} » du cours {course} vous a été renvoyé pour révision. Lisez les commentaires et rendez-le à nouveau.',
			action: 'Lire les commentaires',
			footer: 'Vous recevez cet e-mail parce que vous avez rendu ce travail.',
		},
		submission_received: {
			subject: 'Nouveau travail à noter',
			body: '{learner} a rendu « {entry} » du cours {course}.',
			action: 'Ouvrir la page de notation',
			footer:
				'Vous recevez cet e-mail car vous avez demandé à être prévenu des rendus de ce cours. Désactivez-le sur la page des rendus du cours.',
		},
		attempts_granted: {
			subject: 'Vous avez de nouvelles tentatives pour un quiz',
			body: 'L’équipe du cours vous a accordé de nouvelles tentatives pour « {entry} » du cours {course}.',
			action: 'Refaire le quiz',
			footer: 'Vous recevez cet e-mail parce que vous êtes inscrit à ce cours.',
		},
		assignment_reopened: {
			subject: 'Votre devoir est de nouveau ouvert',
			body: 'L’équipe du cours a rouvert « {entry} » du cours {course} : vous pouvez rendre une nouvelle version.',
			action: 'Rendre une nouvelle version',
			footer: 'Vous recevez cet e-mail parce que vous êtes inscrit à ce cours.',
		},
	},
	de: {
		submission_graded: {
			subject: 'Ihre Arbeit wurde bewertet',
			body: 'Ihre Arbeit zu „{entry}“ im Kurs {course} wurde bewertet.',
			action: 'Bewertung und Rückmeldung ansehen',
			footer: 'Sie erhalten diese E-Mail, weil Sie diese Arbeit eingereicht haben.',
		},
		submission_returned: {
			subject: 'Ihre Arbeit wurde zur Überarbeitung zurückgegeben',
			body: 'Ihre Arbeit zu „{entry}“ im Kurs {course} wurde zur Überarbeitung zurückgegeben. Lesen Sie die Rückmeldung und reichen Sie sie erneut ein.',
			action: 'Rückmeldung lesen',
			footer: 'Sie erhalten diese E-Mail, weil Sie diese Arbeit eingereicht haben.',
		},
		submission_received: {
			subject: 'Neue Arbeit zu bewerten',
			body: '{learner} hat „{entry}“ im Kurs {course} eingereicht.',
			action: 'Bewertungsseite öffnen',
			footer:
				'Sie erhalten diese E-Mail, weil Sie über Einreichungen in diesem Kurs informiert werden möchten. Sie können das auf der Seite der Einreichungen des Kurses abschalten.',
		},
		attempts_granted: {
			subject: 'Sie haben weitere Quizversuche',
			body: 'Das Kursteam hat Ihnen weitere Versuche für „{entry}“ im Kurs {course} gegeben.',
			action: 'Quiz erneut versuchen',
			footer: 'Sie erhalten diese E-Mail, weil Sie in diesem Kurs eingeschrieben sind.',
		},
		assignment_reopened: {
			subject: 'Ihre Aufgabe ist wieder geöffnet',
			body: 'Das Kursteam hat „{entry}“ im Kurs {course} wieder geöffnet: Sie können eine neue Fassung abgeben.',
			action: 'Neue Fassung abgeben',
			footer: 'Sie erhalten diese E-Mail, weil Sie in diesem Kurs eingeschrieben sind.',
		},
	},
	pt: {
		submission_graded: {
			subject: 'O seu trabalho foi avaliado',
			body: 'O seu trabalho em “{entry}” do curso {course} foi avaliado.',
			action: 'Ver a nota e os comentários',
			footer: 'Recebe este e-mail porque entregou este trabalho.',
		},
		submission_returned: {
			subject: 'O seu trabalho foi devolvido para revisão',
			body: 'O seu trabalho em “{entry}” do curso {course} foi devolvido para revisão. Leia os comentários e entregue-o novamente.',
			action: 'Ler os comentários',
			footer: 'Recebe este e-mail porque entregou este trabalho.',
		},
		submission_received: {
			subject: 'Novo trabalho para avaliar',
			body: '{learner} entregou “{entry}” do curso {course}.',
			action: 'Abrir a página de avaliação',
			footer:
				'Recebe este e-mail porque pediu para ser avisado das entregas deste curso. Pode desativá-lo na página de entregas do curso.',
		},
		attempts_granted: {
			subject: 'Você tem mais tentativas num questionário',
			body: 'A equipe do curso deu a você mais tentativas em “{entry}” do curso {course}.',
			action: 'Tentar o questionário de novo',
			footer: 'Você recebe este e-mail porque está inscrito neste curso.',
		},
		assignment_reopened: {
			subject: 'Sua tarefa está aberta de novo',
			body: 'A equipe do curso reabriu “{entry}” do curso {course}: você pode entregar uma nova versão.',
			action: 'Entregar uma nova versão',
			footer: 'Você recebe este e-mail porque está inscrito neste curso.',
		},
	},
	zh: {
		submission_graded: {
			subject: '您的作业已评分',
			body: '您在课程“{course}”中提交的“{entry}”已评分。',
			action: '查看分数和反馈',
			footer: '您收到此邮件是因为您提交了这份作业。',
		},
		submission_returned: {
			subject: '您的作业已退回修改',
			body: '您在课程“{course}”中提交的“{entry}”已退回修改。请阅读反馈后重新提交。',
			action: '阅读反馈',
			footer: '您收到此邮件是因为您提交了这份作业。',
		},
		submission_received: {
			subject: '有新的作业待评分',
			body: '{learner} 提交了课程“{course}”中的“{entry}”。',
			action: '打开评分页面',
			footer: '您收到此邮件是因为您订阅了本课程的提交通知。可在课程的提交页面中关闭。',
		},
		attempts_granted: {
			subject: '你获得了更多测验次数',
			body: '课程团队在课程 {course} 中为“{entry}”多给了你几次尝试机会。',
			action: '再次参加测验',
			footer: '你收到此邮件，是因为你已注册此课程。',
		},
		assignment_reopened: {
			subject: '你的作业已重新开放',
			body: '课程团队重新开放了课程 {course} 中的“{entry}”：你可以提交新版本。',
			action: '提交新版本',
			footer: '你收到此邮件，是因为你已注册此课程。',
		},
	},
}

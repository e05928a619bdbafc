// Transactional email copy in every supported locale. `{site}`, `{role}`, the
// grading mails' `{course}`, `{entry}` and `{learner}`, and the account-exists mail's `{reset}`
// are filled in when composing.
// tests/integration/i18n.test.ts checks that every locale has every key and that
// no locale is a copy of English.
import type { Locale } from '#db/schema/values.ts'

export type EmailKind =
	| 'verification'
	// Sign-up with an address that already has an account here: its owner is told (issue 40).
	| 'account_exists'
	| 'password_reset'
	| 'magic_link'
	| 'email_change'
	| 'invitation'
	// An invitation that enrolls in courses on acceptance (decision 0040): it names them.
	| 'invitation_courses'
	// Grading (decision 0028): to the learner, and to staff who opted into hand-in notices.
	| 'submission_graded'
	| 'submission_returned'
	| 'submission_received'
	// Certificates (decision 0038): to the learner, when a course gives them one.
	| 'certificate_issued'
	// An admin enrolled the learner (decision 0040), in the learner's locale, with the course's link.
	| 'enrolled_by_admin'
	// Second chances (decision 0037): to the learner, when course staff give them more attempts or reopen their work.
	| 'attempts_granted'
	| 'assignment_reopened'
	// After a password change and an address change (issue 40): to the account's address, the old one for an
	// address change, with a reset link that secures the account (decision 0041).
	| 'password_changed'
	| 'email_changed'
	// Reminders (decision 0047): after a spell without activity in a course, before a due date, and course staff's
	// announcements; each carries its unsubscribe link ({unsubscribe}) and List-Unsubscribe headers.
	| 'reminder_inactivity'
	| 'reminder_due'
	| 'announcement'
	// A tenant admin made a copy of the person's data for them (issue 52, decision 0063): the person is told.
	| 'archive_made'

interface EmailCopy {
	subject: string
	body: string
	action: string
	footer: string
}

export interface EmailCatalogue {
	kinds: Record<EmailKind, EmailCopy>
	roles: Record<'student' | 'course_admin' | 'tenant_admin', string>
	/** Label before the plain-text link. */
	linkLabel: string
	/** The first line of a mail to someone whose name we know (`{name}`). */
	greeting: string
}

export const EMAIL_CATALOGUES: Record<Locale, EmailCatalogue> = {
	en: {
		kinds: {
			verification: {
				subject: 'Confirm your email address',
				body: 'Welcome! Please confirm that this is your email address.',
				action: 'Confirm email',
				footer: 'The link works for 24 hours. If you did not sign up, ignore this email.',
			},
			account_exists: {
				subject: 'You already have an account',
				body: 'Someone, perhaps you, tried to sign up at {site} with this address, which already has an account. Sign in with it instead. If you forgot your password, choose a new one here: {reset}',
				action: 'Sign in',
				footer: 'If it was not you, ignore this email: nothing was changed.',
			},
			password_reset: {
				subject: 'Reset your password',
				body: 'Someone asked to reset the password of your account.',
				action: 'Choose a new password',
				footer: 'The link works for one hour and only once. If it was not you, ignore this email.',
			},
			magic_link: {
				subject: 'Your sign-in link',
				body: 'Use this link to sign in without a password.',
				action: 'Sign in',
				footer: 'The link works for 15 minutes and only once. If you did not ask for it, ignore this email.',
			},
			email_change: {
				subject: 'Confirm your new email address',
				body: 'Please confirm that you want to use this address for your account.',
				action: 'Confirm new address',
				footer: 'The link works for one hour. If you did not ask for this change, ignore this email.',
			},
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
			enrolled_by_admin: {
				subject: 'You are enrolled in a course',
				body: 'An administrator of {site} enrolled you in {course}.',
				action: 'Open the course',
				footer: 'You receive this email because you were enrolled in this course.',
			},
			certificate_issued: {
				subject: 'Your certificate is ready',
				body: 'Congratulations! You passed {course}. Your certificate is ready to view, print and share.',
				action: 'View your certificate',
				footer: 'Anyone can check it at the verification link printed on it.',
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
			password_changed: {
				subject: 'Your password was changed',
				body: 'The password of your account at {site} was changed.',
				action: 'Secure your account',
				footer:
					'If it was you, ignore this email. If it was not, choose a new password with this link (it works for one hour): every session is signed out.',
			},
			email_changed: {
				subject: 'Your email address was changed',
				body: 'The email address of your account at {site} was changed. This address no longer signs in to it.',
				action: 'Secure your account',
				footer:
					'If it was you, ignore this email. If it was not, choose a new password with this link (it works for one hour): every session is signed out, then change the address back on your account page.',
			},
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
			archive_made: {
				subject: 'A copy of your data was made',
				body: 'An administrator of {site} made a copy of the data {site} keeps about you, as you or your school asked. You can download the same copy yourself from your account page.',
				action: 'Open your account',
				footer: 'If you did not expect this, ask your school who asked for it.',
			},
		},
		roles: { student: 'a learner', course_admin: 'a course administrator', tenant_admin: 'an administrator' },
		linkLabel: 'Link',
		greeting: 'Hello {name},',
	},
	es: {
		kinds: {
			verification: {
				subject: 'Confirma tu dirección de correo',
				body: '¡Te damos la bienvenida! Confirma que esta es tu dirección de correo.',
				action: 'Confirmar correo',
				footer: 'El enlace es válido durante 24 horas. Si no te registraste, ignora este mensaje.',
			},
			account_exists: {
				subject: 'Ya tienes una cuenta',
				body: 'Alguien, quizá tú, ha intentado registrarse en {site} con esta dirección, que ya tiene una cuenta. Inicia sesión con ella. Si has olvidado tu contraseña, elige una nueva aquí: {reset}',
				action: 'Iniciar sesión',
				footer: 'Si no fuiste tú, ignora este mensaje: no se ha cambiado nada.',
			},
			password_reset: {
				subject: 'Restablece tu contraseña',
				body: 'Alguien ha pedido restablecer la contraseña de tu cuenta.',
				action: 'Elegir una contraseña nueva',
				footer: 'El enlace es válido durante una hora y una sola vez. Si no fuiste tú, ignora este mensaje.',
			},
			magic_link: {
				subject: 'Tu enlace de acceso',
				body: 'Usa este enlace para iniciar sesión sin contraseña.',
				action: 'Iniciar sesión',
				footer: 'El enlace es válido durante 15 minutos y una sola vez. Si no lo pediste, ignora este mensaje.',
			},
			email_change: {
				subject: 'Confirma tu nueva dirección de correo',
				body: 'Confirma que quieres usar esta dirección en tu cuenta.',
				action: 'Confirmar la nueva dirección',
				footer: 'El enlace es válido durante una hora. Si no pediste este cambio, ignora este mensaje.',
			},
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
			enrolled_by_admin: {
				subject: 'Te han inscrito en un curso',
				body: 'Un administrador de {site} te ha inscrito en {course}.',
				action: 'Abrir el curso',
				footer: 'Recibes este correo porque te han inscrito en este curso.',
			},
			certificate_issued: {
				subject: 'Tu certificado está listo',
				body: '¡Enhorabuena! Has aprobado {course}. Tu certificado está listo para verlo, imprimirlo y compartirlo.',
				action: 'Ver tu certificado',
				footer: 'Cualquiera puede comprobarlo en el enlace de verificación impreso en él.',
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
			password_changed: {
				subject: 'Se cambió tu contraseña',
				body: 'Se cambió la contraseña de tu cuenta en {site}.',
				action: 'Proteger tu cuenta',
				footer:
					'Si fuiste tú, ignora este mensaje. Si no, elige una contraseña nueva con este enlace (válido durante una hora): se cerrarán todas las sesiones.',
			},
			email_changed: {
				subject: 'Se cambió tu dirección de correo',
				body: 'Se cambió la dirección de correo de tu cuenta en {site}. Esta dirección ya no sirve para iniciar sesión.',
				action: 'Proteger tu cuenta',
				footer:
					'Si fuiste tú, ignora este mensaje. Si no, elige una contraseña nueva con este enlace (válido durante una hora): se cerrarán todas las sesiones; después, recupera tu dirección en la página de tu cuenta.',
			},
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
			archive_made: {
				subject: 'Se hizo una copia de tus datos',
				body: 'Un administrador de {site} hizo una copia de los datos que {site} guarda sobre ti, a petición tuya o de tu centro. Puedes descargar la misma copia desde la página de tu cuenta.',
				action: 'Abrir tu cuenta',
				footer: 'Si no lo esperabas, pregunta a tu centro quién la pidió.',
			},
		},
		roles: { student: 'estudiante', course_admin: 'administrador de curso', tenant_admin: 'administrador' },
		linkLabel: 'Enlace',
		greeting: 'Hola, {name}:',
	},
	fr: {
		kinds: {
			verification: {
				subject: 'Confirmez votre adresse e-mail',
				body: 'Bienvenue ! Merci de confirmer que cette adresse e-mail est bien la vôtre.',
				action: "Confirmer l'adresse",
				footer: 'Le lien est valable 24 heures. Si vous ne vous êtes pas inscrit, ignorez cet e-mail.',
			},
			account_exists: {
				subject: 'Vous avez déjà un compte',
				body: 'Quelqu’un, peut-être vous, a essayé de s’inscrire sur {site} avec cette adresse, qui a déjà un compte. Connectez-vous plutôt avec celui-ci. Si vous avez oublié votre mot de passe, choisissez-en un nouveau ici : {reset}',
				action: 'Se connecter',
				footer: 'Si ce n’était pas vous, ignorez cet e-mail : rien n’a été modifié.',
			},
			password_reset: {
				subject: 'Réinitialisez votre mot de passe',
				body: 'Quelqu’un a demandé à réinitialiser le mot de passe de votre compte.',
				action: 'Choisir un nouveau mot de passe',
				footer: "Le lien est valable une heure et une seule fois. Si ce n'était pas vous, ignorez cet e-mail.",
			},
			magic_link: {
				subject: 'Votre lien de connexion',
				body: 'Utilisez ce lien pour vous connecter sans mot de passe.',
				action: 'Se connecter',
				footer: "Le lien est valable 15 minutes et une seule fois. Si vous ne l'avez pas demandé, ignorez cet e-mail.",
			},
			email_change: {
				subject: 'Confirmez votre nouvelle adresse e-mail',
				body: 'Merci de confirmer que vous souhaitez utiliser cette adresse pour votre compte.',
				action: 'Confirmer la nouvelle adresse',
				footer: "Le lien est valable une heure. Si vous n'avez pas demandé ce changement, ignorez cet e-mail.",
			},
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
			enrolled_by_admin: {
				subject: 'Vous êtes inscrit à un cours',
				body: 'Un administrateur de {site} vous a inscrit au cours {course}.',
				action: 'Ouvrir le cours',
				footer: 'Vous recevez ce courriel parce que vous avez été inscrit à ce cours.',
			},
			certificate_issued: {
				subject: 'Votre certificat est prêt',
				body: 'Félicitations ! Vous avez réussi {course}. Votre certificat est prêt à être consulté, imprimé et partagé.',
				action: 'Voir votre certificat',
				footer: 'Chacun peut le vérifier grâce au lien de vérification imprimé dessus.',
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
			password_changed: {
				subject: 'Votre mot de passe a été modifié',
				body: 'Le mot de passe de votre compte sur {site} a été modifié.',
				action: 'Sécuriser votre compte',
				footer:
					'Si c’était vous, ignorez ce message. Sinon, choisissez un nouveau mot de passe avec ce lien (valable une heure) : toutes les sessions seront fermées.',
			},
			email_changed: {
				subject: 'Votre adresse e-mail a été modifiée',
				body: 'L’adresse e-mail de votre compte sur {site} a été modifiée. Cette adresse ne permet plus de vous connecter.',
				action: 'Sécuriser votre compte',
				footer:
					'Si c’était vous, ignorez ce message. Sinon, choisissez un nouveau mot de passe avec ce lien (valable une heure) : toutes les sessions seront fermées ; remettez ensuite votre adresse sur la page de votre compte.',
			},
			reminder_inactivity: {
				subject: 'Reprenez {course} là où vous l’avez laissé',
				body: 'Vous n’êtes pas revenu à {course} sur {site} depuis {days} jours. Votre place est gardée : quelques minutes aujourd’hui suffisent pour avancer.',
				action: 'Continuer le cours',
				footer:
					'Vous recevez ce message une fois par période d’inactivité. Ne plus recevoir ces rappels : {unsubscribe}',
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
			archive_made: {
				subject: 'Une copie de vos données a été faite',
				body: 'Un administrateur de {site} a fait une copie des données que {site} conserve à votre sujet, à votre demande ou à celle de votre établissement. Vous pouvez télécharger la même copie depuis la page de votre compte.',
				action: 'Ouvrir votre compte',
				footer: 'Si vous ne vous y attendiez pas, demandez à votre établissement qui l’a demandée.',
			},
		},
		roles: { student: 'apprenant', course_admin: 'administrateur de cours', tenant_admin: 'administrateur' },
		linkLabel: 'Lien',
		greeting: 'Bonjour {name},',
	},
	de: {
		kinds: {
			verification: {
				subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
				body: 'Willkommen! Bitte bestätigen Sie, dass dies Ihre E-Mail-Adresse ist.',
				action: 'E-Mail bestätigen',
				footer: 'Der Link ist 24 Stunden gültig. Wenn Sie sich nicht registriert haben, ignorieren Sie diese E-Mail.',
			},
			account_exists: {
				subject: 'Sie haben bereits ein Konto',
				body: 'Jemand, vielleicht Sie, wollte sich bei {site} mit dieser Adresse registrieren, zu der es bereits ein Konto gibt. Melden Sie sich stattdessen damit an. Wenn Sie Ihr Passwort vergessen haben, wählen Sie hier ein neues: {reset}',
				action: 'Anmelden',
				footer: 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Es wurde nichts geändert.',
			},
			password_reset: {
				subject: 'Setzen Sie Ihr Passwort zurück',
				body: 'Jemand hat das Zurücksetzen des Passworts Ihres Kontos angefordert.',
				action: 'Neues Passwort wählen',
				footer:
					'Der Link ist eine Stunde lang und nur einmal gültig. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
			},
			magic_link: {
				subject: 'Ihr Anmeldelink',
				body: 'Mit diesem Link melden Sie sich ohne Passwort an.',
				action: 'Anmelden',
				footer:
					'Der Link ist 15 Minuten lang und nur einmal gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
			},
			email_change: {
				subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
				body: 'Bitte bestätigen Sie, dass Sie diese Adresse für Ihr Konto verwenden möchten.',
				action: 'Neue Adresse bestätigen',
				footer:
					'Der Link ist eine Stunde gültig. Wenn Sie diese Änderung nicht angefordert haben, ignorieren Sie diese E-Mail.',
			},
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
			enrolled_by_admin: {
				subject: 'Sie wurden in einen Kurs eingeschrieben',
				body: 'Eine Administratorin oder ein Administrator von {site} hat Sie in {course} eingeschrieben.',
				action: 'Kurs öffnen',
				footer: 'Sie erhalten diese E-Mail, weil Sie in diesen Kurs eingeschrieben wurden.',
			},
			certificate_issued: {
				subject: 'Ihr Zertifikat ist bereit',
				body: 'Herzlichen Glückwunsch! Sie haben {course} bestanden. Ihr Zertifikat kann jetzt angesehen, gedruckt und geteilt werden.',
				action: 'Zertifikat ansehen',
				footer: 'Jeder kann es über den aufgedruckten Prüflink verifizieren.',
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
			password_changed: {
				subject: 'Ihr Passwort wurde geändert',
				body: 'Das Passwort Ihres Kontos bei {site} wurde geändert.',
				action: 'Konto schützen',
				footer:
					'Wenn Sie das waren, ignorieren Sie diese E-Mail. Andernfalls wählen Sie mit diesem Link (eine Stunde gültig) ein neues Passwort: Alle Sitzungen werden abgemeldet.',
			},
			email_changed: {
				subject: 'Ihre E-Mail-Adresse wurde geändert',
				body: 'Die E-Mail-Adresse Ihres Kontos bei {site} wurde geändert. Mit dieser Adresse können Sie sich nicht mehr anmelden.',
				action: 'Konto schützen',
				footer:
					'Wenn Sie das waren, ignorieren Sie diese E-Mail. Andernfalls wählen Sie mit diesem Link (eine Stunde gültig) ein neues Passwort: Alle Sitzungen werden abgemeldet. Ändern Sie danach die Adresse auf Ihrer Kontoseite zurück.',
			},
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
			archive_made: {
				subject: 'Eine Kopie Ihrer Daten wurde erstellt',
				body: 'Eine Administratorin oder ein Administrator von {site} hat eine Kopie der Daten erstellt, die {site} über Sie speichert, auf Ihren Wunsch oder den Ihrer Schule. Dieselbe Kopie können Sie selbst auf Ihrer Kontoseite herunterladen.',
				action: 'Konto öffnen',
				footer: 'Wenn Sie das nicht erwartet haben, fragen Sie Ihre Schule, wer sie angefordert hat.',
			},
		},
		roles: { student: 'Lernende Person', course_admin: 'Kursverwaltung', tenant_admin: 'Administration' },
		linkLabel: 'Link',
		greeting: 'Hallo {name},',
	},
	pt: {
		kinds: {
			verification: {
				subject: 'Confirme o seu endereço de e-mail',
				body: 'Boas-vindas! Confirme que este é o seu endereço de e-mail.',
				action: 'Confirmar e-mail',
				footer: 'O link é válido por 24 horas. Se não se registou, ignore este e-mail.',
			},
			account_exists: {
				subject: 'Já tem uma conta',
				body: 'Alguém, talvez você, tentou registar-se em {site} com este endereço, que já tem uma conta. Entre com ela. Se esqueceu a palavra-passe, escolha uma nova aqui: {reset}',
				action: 'Entrar',
				footer: 'Se não foi você, ignore este e-mail: nada foi alterado.',
			},
			password_reset: {
				subject: 'Redefina a sua palavra-passe',
				body: 'Alguém pediu para redefinir a palavra-passe da sua conta.',
				action: 'Escolher uma nova palavra-passe',
				footer: 'O link é válido por uma hora e uma única vez. Se não foi você, ignore este e-mail.',
			},
			magic_link: {
				subject: 'O seu link de acesso',
				body: 'Use este link para entrar sem palavra-passe.',
				action: 'Entrar',
				footer: 'O link é válido por 15 minutos e uma única vez. Se não o pediu, ignore este e-mail.',
			},
			email_change: {
				subject: 'Confirme o seu novo endereço de e-mail',
				body: 'Confirme que pretende usar este endereço na sua conta.',
				action: 'Confirmar o novo endereço',
				footer: 'O link é válido por uma hora. Se não pediu esta alteração, ignore este e-mail.',
			},
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
			enrolled_by_admin: {
				subject: 'Foi inscrito num curso',
				body: 'Um administrador de {site} inscreveu-o em {course}.',
				action: 'Abrir o curso',
				footer: 'Recebe este email porque foi inscrito neste curso.',
			},
			certificate_issued: {
				subject: 'Seu certificado está pronto',
				body: 'Parabéns! Você foi aprovado em {course}. Seu certificado está pronto para ver, imprimir e compartilhar.',
				action: 'Ver seu certificado',
				footer: 'Qualquer pessoa pode conferi-lo no link de verificação impresso nele.',
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
			password_changed: {
				subject: 'A sua palavra-passe foi alterada',
				body: 'A palavra-passe da sua conta em {site} foi alterada.',
				action: 'Proteger a sua conta',
				footer:
					'Se foi você, ignore esta mensagem. Caso contrário, escolha uma nova palavra-passe com este link (válido durante uma hora): todas as sessões serão terminadas.',
			},
			email_changed: {
				subject: 'O seu endereço de e-mail foi alterado',
				body: 'O endereço de e-mail da sua conta em {site} foi alterado. Este endereço já não serve para iniciar sessão.',
				action: 'Proteger a sua conta',
				footer:
					'Se foi você, ignore esta mensagem. Caso contrário, escolha uma nova palavra-passe com este link (válido durante uma hora): todas as sessões serão terminadas; depois, reponha o endereço na página da sua conta.',
			},
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
			archive_made: {
				subject: 'Foi feita uma cópia dos seus dados',
				body: 'Um administrador de {site} fez uma cópia dos dados que {site} guarda sobre si, a seu pedido ou da sua escola. Pode descarregar a mesma cópia na página da sua conta.',
				action: 'Abrir a sua conta',
				footer: 'Se não esperava isto, pergunte à sua escola quem a pediu.',
			},
		},
		roles: { student: 'estudante', course_admin: 'administrador de curso', tenant_admin: 'administrador' },
		linkLabel: 'Link',
		greeting: 'Olá, {name},',
	},
	zh: {
		kinds: {
			verification: {
				subject: '请确认您的电子邮件地址',
				body: '欢迎！请确认这是您的电子邮件地址。',
				action: '确认邮箱',
				footer: '此链接 24 小时内有效。如果您没有注册，请忽略此邮件。',
			},
			account_exists: {
				subject: '您已有账户',
				body: '有人（也许是您）尝试使用此地址在 {site} 注册，但该地址已有账户。请直接使用它登录。如果您忘记了密码，可以在这里设置新密码：{reset}',
				action: '登录',
				footer: '如果不是您本人操作，请忽略此邮件：没有任何更改。',
			},
			password_reset: {
				subject: '重置您的密码',
				body: '有人请求重置您账户的密码。',
				action: '设置新密码',
				footer: '此链接一小时内有效，且只能使用一次。如果不是您本人操作，请忽略此邮件。',
			},
			magic_link: {
				subject: '您的登录链接',
				body: '使用此链接即可无需密码登录。',
				action: '登录',
				footer: '此链接 15 分钟内有效，且只能使用一次。如果您没有请求此链接，请忽略此邮件。',
			},
			email_change: {
				subject: '请确认您的新电子邮件地址',
				body: '请确认您希望将此地址用于您的账户。',
				action: '确认新地址',
				footer: '此链接一小时内有效。如果您没有请求此更改，请忽略此邮件。',
			},
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
			enrolled_by_admin: {
				subject: '您已被注册到课程',
				body: '{site} 的管理员已为您注册课程 {course}。',
				action: '打开课程',
				footer: '您收到此邮件是因为您已被注册到此课程。',
			},
			certificate_issued: {
				subject: '您的证书已准备好',
				body: '恭喜！您已通过 {course}。您的证书现在可以查看、打印和分享。',
				action: '查看您的证书',
				footer: '任何人都可以通过证书上印有的验证链接进行核验。',
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
			password_changed: {
				subject: '您的密码已更改',
				body: '您在 {site} 的账户密码已更改。',
				action: '保护您的账户',
				footer: '如果是您本人操作，请忽略此邮件。如果不是，请通过此链接（一小时内有效）设置新密码：所有会话都将退出。',
			},
			email_changed: {
				subject: '您的电子邮件地址已更改',
				body: '您在 {site} 的账户电子邮件地址已更改。此地址已无法再用于登录。',
				action: '保护您的账户',
				footer:
					'如果是您本人操作，请忽略此邮件。如果不是，请通过此链接（一小时内有效）设置新密码：所有会话都将退出；然后在账户页面改回您的地址。',
			},
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
			archive_made: {
				subject: '已为您的数据制作副本',
				body: '{site} 的管理员应您或您学校的要求，制作了 {site} 保存的关于您的数据副本。您也可以在账户页面下载同一份副本。',
				action: '打开您的账户',
				footer: '如果您没有预料到此事，请询问您的学校是谁提出的请求。',
			},
		},
		roles: { student: '学员', course_admin: '课程管理员', tenant_admin: '管理员' },
		linkLabel: '链接',
		greeting: '{name}，您好：',
	},
}

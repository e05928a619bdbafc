// The accounts room's mails, in every supported locale (issue 50: each room's mail copy beside it).
// `{site}` and the account-exists mail's `{reset}` are filled in when composing
// (app/platform/emails.server.ts). tests/integration/emails.test.ts checks, through tests/support/email-catalogue.ts,
// that every locale has every key and that no locale is a copy of English.
import type { EmailCopies } from '#app/i18n/emails.ts'

export type AccountEmailKind =
	| 'verification'
	// Sign-up with an address that already has an account here: its owner is told (issue 40).
	| 'account_exists'
	| 'password_reset'
	| 'magic_link'
	| 'email_change'
	// After a password change and an address change (issue 40): to the account's address, the old one for an
	// address change, with a reset link that secures the account (decision 0041).
	| 'password_changed'
	| 'email_changed'
	// A tenant admin made a copy of the person's data for them (issue 52, decision 0063): the person is told.
	| 'archive_made'

export const ACCOUNT_EMAILS: EmailCopies<AccountEmailKind> = {
	en: {
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
		archive_made: {
			subject: 'A copy of your data was made',
			body: 'An administrator of {site} made a copy of the data {site} keeps about you, as you or your school asked. You can download the same copy yourself from your account page.',
			action: 'Open your account',
			footer: 'If you did not expect this, ask your school who asked for it.',
		},
	},
	es: {
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
		archive_made: {
			subject: 'Se hizo una copia de tus datos',
			body: 'Un administrador de {site} hizo una copia de los datos que {site} guarda sobre ti, a petición tuya o de tu centro. Puedes descargar la misma copia desde la página de tu cuenta.',
			action: 'Abrir tu cuenta',
			footer: 'Si no lo esperabas, pregunta a tu centro quién la pidió.',
		},
	},
	fr: {
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
		archive_made: {
			subject: 'Une copie de vos données a été faite',
			body: 'Un administrateur de {site} a fait une copie des données que {site} conserve à votre sujet, à votre demande ou à celle de votre établissement. Vous pouvez télécharger la même copie depuis la page de votre compte.',
			action: 'Ouvrir votre compte',
			footer: 'Si vous ne vous y attendiez pas, demandez à votre établissement qui l’a demandée.',
		},
	},
	de: {
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
		archive_made: {
			subject: 'Eine Kopie Ihrer Daten wurde erstellt',
			body: 'Eine Administratorin oder ein Administrator von {site} hat eine Kopie der Daten erstellt, die {site} über Sie speichert, auf Ihren Wunsch oder den Ihrer Schule. Dieselbe Kopie können Sie selbst auf Ihrer Kontoseite herunterladen.',
			action: 'Konto öffnen',
			footer: 'Wenn Sie das nicht erwartet haben, fragen Sie Ihre Schule, wer sie angefordert hat.',
		},
	},
	pt: {
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
		archive_made: {
			subject: 'Foi feita uma cópia dos seus dados',
			body: 'Um administrador de {site} fez uma cópia dos dados que {site} guarda sobre si, a seu pedido ou da sua escola. Pode descarregar a mesma cópia na página da sua conta.',
			action: 'Abrir a sua conta',
			footer: 'Se não esperava isto, pergunte à sua escola quem a pediu.',
		},
	},
	zh: {
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
		archive_made: {
			subject: '已为您的数据制作副本',
			body: '{site} 的管理员应您或您学校的要求，制作了 {site} 保存的关于您的数据副本。您也可以在账户页面下载同一份副本。',
			action: '打开您的账户',
			footer: '如果您没有预料到此事，请询问您的学校是谁提出的请求。',
		},
	},
}

import type en from './en.ts'

export default {
	fields: {
		name: 'Name',
		email: 'E-Mail',
		password: 'Passwort',
		passwordHint: 'Mindestens 8 Zeichen und kein gängiges Passwort.',
	},
	backToSignIn: 'Zurück zur Anmeldung',
	goToSignIn: 'Zur Anmeldung',
	signIn: {
		title: 'Anmelden',
		signedOut: 'Sie wurden abgemeldet.',
		passwordReset: 'Ihr Passwort wurde geändert. Melden Sie sich mit dem neuen an.',
		platformSignIn: 'Zur Anmeldung der Plattform',
		submit: 'Anmelden',
		forgot: 'Passwort vergessen?',
		otherWays: 'Weitere Anmeldemöglichkeiten',
		continueWith: 'Weiter mit {provider}',
		magicLink: 'Anmeldelink per E-Mail erhalten',
		signUp: 'Konto erstellen',
		errors: {
			invalid: 'E-Mail-Adresse oder Passwort ist falsch.',
			deactivated: 'Dieses Konto wurde deaktiviert. Wenden Sie sich an Ihre Verwaltung.',
			noPassword:
				'Wenn Sie sich sonst über einen externen Anbieter oder einen Anmeldelink anmelden, hat Ihr Konto vielleicht kein Passwort: Melden Sie sich auf diesem Weg an.',
			tenantInactive: 'Auf dieser Lernplattform sind derzeit keine Anmeldungen möglich.',
			apexAccountWrongHost:
				'Dies ist ein Plattformkonto. Melden Sie sich stattdessen auf der Website der Plattform an.',
			unverified: 'Bestätigen Sie zuerst Ihre E-Mail-Adresse: Wir haben Ihnen einen neuen Bestätigungslink geschickt.',
		},
	},
	signInError: {
		title: 'Anmeldung fehlgeschlagen',
		heading: 'Wir konnten Sie nicht anmelden',
		generic: 'Bei der Anmeldung ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.',
		emailUnverified:
			'Ihr Konto bei diesem Anbieter hat keine bestätigte E-Mail-Adresse. Bestätigen Sie sie dort und versuchen Sie es dann erneut.',
		emailMissing:
			'Dieser Anbieter hat uns keine E-Mail-Adresse mitgeteilt, daher können wir Sie darüber nicht anmelden.',
		tenantUnknown:
			'Die externe Anmeldung funktioniert nur auf der Lernplattform einer Schule oder eines Unternehmens, nicht hier.',
		tenantSuspended: 'Diese Lernplattform ist pausiert, daher kann sich derzeit niemand anmelden.',
		accountDeactivated: 'Ihr Konto auf dieser Lernplattform wurde deaktiviert. Wenden Sie sich an Ihre Verwaltung.',
	},
	signUp: {
		title: 'Konto erstellen',
		submit: 'Konto erstellen',
		haveAccount: 'Ich habe bereits ein Konto',
		checkEmail:
			'Prüfen Sie Ihr Postfach: Wir haben Ihnen einen Link zur Bestätigung Ihrer Adresse gesendet. Melden Sie sich danach an.',
	},
	verify: {
		title: 'E-Mail-Adresse bestätigen',
	},
	forgot: {
		title: 'Passwort vergessen?',
		sent: 'Falls für diese Adresse ein Konto mit Passwort existiert, haben wir ihr einen Link gesendet, mit dem Sie ein neues Passwort wählen können.',
		intro:
			'Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort wählen können.',
		submit: 'Link zum Zurücksetzen senden',
	},
	reset: {
		title: 'Neues Passwort wählen',
		newPassword: 'Neues Passwort',
		newPasswordAgain: 'Neues Passwort wiederholen',
		submit: 'Passwort speichern',
		retry: 'Neuen Link anfordern',
		confirmRequired: 'Geben Sie das Passwort erneut ein',
		mismatch: 'Die beiden Passwörter stimmen nicht überein',
	},
	magic: {
		title: 'Anmeldelink per E-Mail erhalten',
		heading: 'Mit einem Link anmelden',
		sent: 'Falls für diese Adresse ein Konto existiert, haben wir ihr einen Anmeldelink gesendet. Er ist 15 Minuten lang gültig.',
		intro: 'Wir senden Ihnen per E-Mail einen Link, mit dem Sie sich ohne Passwort anmelden.',
		submit: 'Link senden',
		withPassword: 'Mit Passwort anmelden',
	},
	magicToken: {
		heading: 'Mit diesem Link anmelden',
		question: 'Als {email} fortfahren?',
		submit: 'Anmelden',
		title: 'Anmeldelink',
		retry: 'Neuen Link senden',
	},
	account: {
		title: 'Konto',
		emailSent:
			'Wir haben einen Bestätigungslink an die neue Adresse gesendet. Ihre E-Mail-Adresse ändert sich, sobald Sie sie bestätigen.',
		localeChanged: 'Ihre Sprache wurde gespeichert.',
		emailChanged: 'Ihre E-Mail-Adresse wurde geändert.',
		changeEmail: 'E-Mail-Adresse ändern',
		newEmail: 'Neue E-Mail-Adresse',
		sendConfirmation: 'Bestätigungslink senden',
		sameEmail: 'Das ist bereits Ihre Adresse',
		emailTaken: 'Diese Adresse wird bereits von einem anderen Konto verwendet',
		currentPassword: 'Aktuelles Passwort',
		wrongPassword: 'Das ist nicht Ihr aktuelles Passwort',
		language: 'Sprache',
		languageLabel: 'Sprache der Oberfläche und der E-Mails',
		saveLanguage: 'Sprache speichern',
		sessions: 'Sitzungen',
		signOutEverywhereHint: 'Meldet Sie auf allen Geräten ab, auch auf diesem.',
		signOutEverywhere: 'Überall abmelden',
	},
	confirmEmail: {
		title: 'Neue E-Mail-Adresse bestätigen',
		heading: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
		question: 'Ab jetzt {email} für Ihr Konto verwenden?',
		submit: 'Neue Adresse bestätigen',
		cancel: 'Abbrechen',
		retry: 'Zurück zu meinem Konto',
	},
	signOut: {
		title: 'Abmelden',
		heading: 'Abmelden?',
		body: 'Sie müssen sich erneut anmelden, um Ihre Kurse auf diesem Gerät fortzusetzen.',
		submit: 'Abmelden',
		dashboard: 'Zurück zu meiner Übersicht',
		cancel: 'Abbrechen',
	},
	invite: {
		title: 'Einladung',
		heading: 'Sie sind eingeladen',
		joinAs: 'Treten Sie als {role} mit der Adresse {email} bei.',
		joinAsCourse: 'Treten Sie als {role} für {course} mit der Adresse {email} bei.',
		yourName: 'Ihr Name',
		choosePassword: 'Passwort wählen',
		submit: 'Einladung annehmen',
		roles: {
			student: 'Lernende(r)',
			course_admin: 'Kursadministrator(in)',
			tenant_admin: 'Mandantenadministrator(in)',
			super_admin: 'Super-Administrator(in)',
		},
	},
} satisfies typeof en

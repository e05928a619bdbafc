import type en from './en.ts'

export default {
	platformName: 'Open LMS',
	skipToContent: 'Zum Inhalt springen',
	nav: {
		label: 'Hauptmenü',
		courses: 'Kurse',
		blog: 'Blog',
		dashboard: 'Übersicht',
		admin: 'Verwaltung',
		account: 'Konto',
		signIn: 'Anmelden',
		signOut: 'Abmelden',
	},
	impersonation: {
		banner: 'Sie sind als {name} angemeldet (Identitätswechsel).',
		stop: 'Identitätswechsel beenden',
	},
	switcher: {
		label: 'Sprache',
		submit: 'Sprache wechseln',
	},
	contentLanguage: 'Dieser Inhalt ist noch nicht auf {requested} verfügbar; er wird auf {served} angezeigt.',
	working: 'Wird bearbeitet…',
	// A destructive action's confirmation step (the question comes from its page)
	confirm: { cancel: 'Abbrechen' },
	errors: {
		title: 'Etwas ist schiefgelaufen',
		message: 'Bitte versuchen Sie es gleich noch einmal.',
		notFoundTitle: 'Seite nicht gefunden',
		notFound: 'Diese Seite konnten wir nicht finden.',
		goneTitle: 'Nicht mehr verfügbar',
		gone: 'Dieser Inhalt wurde zurückgezogen.',
		unavailableTitle: 'Vorübergehend nicht verfügbar',
		contentUnavailable:
			'Die Kursinhalte konnten gerade nicht geladen werden. Bitte versuchen Sie es gleich noch einmal.',
		forbiddenTitle: 'Kein Zugriff',
		forbidden: 'Sie haben keinen Zugriff auf diese Seite.',
		home: 'Zur Startseite',
		tooMany: 'Zu viele Versuche. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.',
		notAForm: 'Der Inhalt der Anfrage ist kein Formular.',
	},
	status: {
		siteNotFoundTitle: 'Website nicht gefunden',
		siteNotFound: 'Unter dieser Adresse gibt es keine Lernplattform.',
		suspendedTitle: 'Diese Website ist vorübergehend nicht verfügbar',
		suspended:
			'{site} hat diese Lernplattform pausiert. Bitte schauen Sie später wieder vorbei oder wenden Sie sich an Ihre Verwaltung.',
		databaseDown: 'Unsere Datenbank ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
		refusedTitle: 'Anfrage abgelehnt',
		noLength: 'Die Anfrage hat ihre Länge nicht angegeben. Bitte versuchen Sie es erneut.',
		crossSite:
			'Dieses Formular wurde von einer anderen Website gesendet. Gehen Sie zurück, laden Sie die Seite neu und versuchen Sie es erneut.',
		tooLargeTitle: 'Zu viele Daten',
		tooLarge: 'Ihre Sendung ist größer, als diese Website annimmt (1 MB). Kürzen Sie sie und versuchen Sie es erneut.',
		badRequest: 'Diese Adresse kann diese Website nicht beantworten. Prüfen Sie den Link und versuchen Sie es erneut.',
		methodNotAllowed: 'Diese Website nimmt diese Art von Anfrage nicht an.',
		handInsBusyTitle: 'Zu viele Abgaben gleichzeitig',
		handInsBusy:
			'Gerade geben viele Lernende Arbeiten ab. Ihre Arbeit wurde nicht gesendet: Bitte warten Sie ein paar Sekunden und geben Sie sie dann erneut ab.',
	},
	validation: {
		emailRequired: 'Geben Sie Ihre E-Mail-Adresse ein',
		emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein',
		max254: 'Verwenden Sie höchstens 254 Zeichen',
		max100: 'Verwenden Sie höchstens 100 Zeichen',
		max5000: 'Verwenden Sie höchstens 5.000 Zeichen',
		passwordRequired: 'Geben Sie Ihr Passwort ein',
		passwordTooLong: 'Dieses Passwort ist zu lang',
		newPasswordRequired: 'Wählen Sie ein Passwort',
		min8: 'Verwenden Sie mindestens 8 Zeichen',
		max128: 'Verwenden Sie höchstens 128 Zeichen',
		passwordCommon: 'Dieses Passwort ist zu verbreitet. Wählen Sie ein anderes.',
		nameRequired: 'Geben Sie Ihren Namen ein',
		controlCharacters: 'Entfernen Sie die Steuerzeichen',
		required: 'Dieses Feld ist erforderlich',
		choose: 'Wählen Sie eine der Optionen',
	},
	notices: {
		completePreviousInModule:
			'Dieser Eintrag ist gesperrt. Schließen Sie zuerst die vorherigen Einträge des Moduls ab; hier ist der nächste.',
		completePreviousInCourse:
			'Dieser Kurs wird der Reihe nach bearbeitet. Schließen Sie zuerst die vorherigen Einträge ab; hier ist der nächste.',
		enrollFirst: 'Schreiben Sie sich in diesen Kurs ein, um seine Einträge zu öffnen.',
		enrolled: 'Sie sind eingeschrieben. Willkommen im Kurs!',
		alreadyEnrolled: 'Sie sind bereits in diesen Kurs eingeschrieben.',
		entryCompleted: 'Als erledigt markiert. Hier ist der nächste Eintrag.',
		handedIn: 'Abgegeben. Ihre Arbeit ist unten gespeichert; Sie können erneut abgeben, bis sie bewertet ist.',
		courseCompleted: 'Sie haben alle Einträge dieses Kurses abgeschlossen. Gut gemacht!',
	},
	preview: {
		title: 'Vorschaumodus.',
		body: 'Sie sehen den Kurs wie Lernende, ohne Einschreibung und Sperren. Nichts, was Sie hier tun, wird gespeichert.',
		draftTitle: 'Entwurf.',
		draftBody:
			'Dieser Kurs ist nicht veröffentlicht: Lernende sehen ihn nicht, und nur das Personal und seine Autorinnen und Autoren können diese Vorschau öffnen.',
		link: 'Aus dem Kurseditor für {author} geöffnet. Dieser Link gilt bis {until}; öffnen Sie die Vorschau im Editor erneut für einen neuen.',
		linkExpired:
			'Dieser Vorschau-Link ist abgelaufen. Öffnen Sie die Vorschau im Kurseditor erneut, um einen neuen zu erhalten.',
	},
	tenantHint: {
		body: '{what} gehören zu einem Mandanten.',
		open: 'Öffnen Sie zuerst den Mandanten',
		after: '.',
	},
	token: {
		expiredTitle: 'Dieser Link ist abgelaufen',
		expired: 'Per E-Mail gesendete Links gelten nur eine begrenzte Zeit. Fordern Sie einen neuen an.',
		usedTitle: 'Dieser Link wurde bereits verwendet',
		used: 'Jeder Link funktioniert nur einmal. Wenn Sie das nicht waren, fordern Sie einen neuen an.',
		invalidTitle: 'Dieser Link ist ungültig',
		invalid:
			'Prüfen Sie, ob Sie den vollständigen Link aus der E-Mail geöffnet haben, oder fordern Sie einen neuen an.',
	},
	free: 'Kostenlos',
} satisfies typeof en

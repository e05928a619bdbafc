import { ACCOUNT_EMAILS, type AccountEmailKind } from '#app/accounts/emails.ts'
import { INVITATION_EMAILS, type InvitationEmailKind } from '#app/accounts/invitation-emails.ts'
import { ADMIN_EMAILS, type AdminEmailKind } from '#app/admin/emails.ts'
import { CERTIFICATE_EMAILS, type CertificateEmailKind } from '#app/certificates/emails.ts'
import { EMAIL_SHELL, type EmailCopies, type EmailCopy, type EmailShell } from '#app/i18n/emails.ts'
import { INTEGRATION_EMAILS, type IntegrationEmailKind } from '#app/integrations/emails.ts'
import { LEARNING_EMAILS, type LearningEmailKind } from '#app/learning/emails.ts'
import { REMINDER_EMAILS, type ReminderEmailKind } from '#app/reminders/emails.ts'
import { LOCALES, type Locale } from '#db/schema/values.ts'

/*
 * Every room's mails in one catalogue per locale (issue 50). Each room keeps its copy beside it
 * (app/<room>/emails.ts) and hands it to composeEmail itself; this test module only joins them so
 * that tests/integration/emails.test.ts checks every locale of every mail (no production code reads
 * the catalogue). A room that adds a file of mails adds it to ROOMS.
 */

type EmailKind =
	| AccountEmailKind
	| InvitationEmailKind
	| LearningEmailKind
	| CertificateEmailKind
	| ReminderEmailKind
	| AdminEmailKind
	| IntegrationEmailKind

interface EmailCatalogue extends EmailShell {
	kinds: Record<EmailKind, EmailCopy>
}

const ROOMS: EmailCopies<string>[] = [
	ACCOUNT_EMAILS,
	INVITATION_EMAILS,
	LEARNING_EMAILS,
	CERTIFICATE_EMAILS,
	REMINDER_EMAILS,
	ADMIN_EMAILS,
	INTEGRATION_EMAILS,
]

function catalogue(locale: Locale): EmailCatalogue {
	const kinds: Record<string, EmailCopy> = {}
	for (const room of ROOMS)
		for (const [kind, copy] of Object.entries(room[locale])) {
			// Two rooms naming one kind would send one room's copy for the other's mail.
			if (kind in kinds) throw new Error(`two rooms define the ${kind} email`)
			kinds[kind] = copy
		}
	return { ...EMAIL_SHELL[locale], kinds: kinds as EmailCatalogue['kinds'] }
}

export const EMAIL_CATALOGUES = Object.fromEntries(LOCALES.map((locale) => [locale, catalogue(locale)])) as Record<
	Locale,
	EmailCatalogue
>

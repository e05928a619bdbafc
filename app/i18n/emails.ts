// What every transactional mail shares, in every supported locale: the shape of one mail's copy, the
// invitation's role names (`{role}`) and the label before the plain-text link. Each room keeps its own
// mails' copy beside it (app/<room>/emails.ts, issue 50) and hands it to composeEmail
// (app/platform/emails.server.ts); tests/support/email-catalogue.ts puts every room's together for the catalogue checks
// (tests/integration/emails.test.ts: every locale has every key, no locale is a copy of English).
import type { Locale } from '#db/schema/values.ts'

export interface EmailCopy {
	subject: string
	body: string
	action: string
	footer: string
}

/** One room's mails: each kind's copy, in every locale. */
export type EmailCopies<Kind extends string> = Record<Locale, Record<Kind, EmailCopy>>

export interface EmailShell {
	roles: Record<'student' | 'course_admin' | 'tenant_admin', string>
	/** Label before the plain-text link. */
	linkLabel: string
	/** The first line of a mail to someone whose name we know (`{name}`). */
	greeting: string
}

export const EMAIL_SHELL: Record<Locale, EmailShell> = {
	en: {
		roles: { student: 'a learner', course_admin: 'a course administrator', tenant_admin: 'an administrator' },
		linkLabel: 'Link',
		greeting: 'Hello {name},',
	},
	es: {
		roles: { student: 'estudiante', course_admin: 'administrador de curso', tenant_admin: 'administrador' },
		linkLabel: 'Enlace',
		greeting: 'Hola, {name}:',
	},
	fr: {
		roles: { student: 'apprenant', course_admin: 'administrateur de cours', tenant_admin: 'administrateur' },
		linkLabel: 'Lien',
		greeting: 'Bonjour {name},',
	},
	de: {
		roles: { student: 'Lernende Person', course_admin: 'Kursverwaltung', tenant_admin: 'Administration' },
		linkLabel: 'Link',
		greeting: 'Hallo {name},',
	},
	pt: {
		roles: { student: 'estudante', course_admin: 'administrador de curso', tenant_admin: 'administrador' },
		linkLabel: 'Link',
		greeting: 'Olá, {name},',
	},
	zh: {
		roles: { student: '学员', course_admin: '课程管理员', tenant_admin: '管理员' },
		linkLabel: '链接',
		greeting: '{name}，您好：',
	},
}

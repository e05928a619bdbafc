import type { RequestContext } from '#app/context.ts'
import type { Env } from './env.server.ts'
import { EMAIL_SHELL, type EmailCopies, type EmailShell } from '#app/i18n/emails.ts'
import type { Locale } from '#db/schema/values.ts'
import type { Email, Mailer } from './mailer.server.ts'
import { escapeHtml as esc } from './html.ts'

export interface EmailInput<Kind extends string> {
	/** Which of the room's mails (the room's copies, app/<room>/emails.ts, are composeEmail's first argument). */
	kind: NoInfer<Kind>
	to: string
	locale: Locale
	site: string
	url: string
	/** Invitations: the role offered. */
	role?: keyof EmailShell['roles']
	/** The body's other placeholders (a course's and an entry's title, a learner's name), as plain text. */
	values?: Record<string, string>
	/**
	 * A reminder's one-click unsubscribe URL (RFC 8058, decision 0047): `{unsubscribe}` in the copy, and the
	 * List-Unsubscribe and List-Unsubscribe-Post headers, which both transports pass on.
	 */
	unsubscribe?: string
	/** The recipient's name: the body opens with the locale's greeting of them (an invitation, decision 0065). */
	greet?: string | null
}

/**
 * One transactional email, as HTML and plain text, in the recipient's locale, from the copy of the room
 * that sends it (app/<room>/emails.ts: the bottom room knows no room's mails, issue 50).
 */
export function composeEmail<Kind extends string>(
	copies: EmailCopies<Kind>,
	{ kind, to, locale, site, url, role, values = {}, unsubscribe, greet }: EmailInput<Kind>,
): Email {
	const shell = EMAIL_SHELL[locale] ?? EMAIL_SHELL.en
	const copy = (copies[locale] ?? copies.en)[kind]
	const filled: Record<string, string> = { ...values, site, role: role ? shell.roles[role] : '' }
	if (unsubscribe) filled.unsubscribe = unsubscribe
	// One pass each, so a value that itself contains `{site}` (a learner's name, an announcement) is never expanded.
	const fill = (template: string) => template.replace(/\{(\w+)\}/g, (whole, name: string) => filled[name] ?? whole)
	// The greeting filled on its own: the name is a value, never a template.
	const greeting = greet ? shell.greeting.replace('{name}', () => greet) : null
	const body = greeting ? `${greeting}\n\n${fill(copy.body)}` : fill(copy.body)
	const footer = fill(copy.footer)
	const text = `${body}\n\n${copy.action}: ${url}\n\n${footer}\n\n— ${site}`
	// pre-line: an announcement's paragraphs stay paragraphs.
	const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p style="font-weight:700">${esc(site)}</p><p style="white-space:pre-line">${esc(body)}</p>
<p><a href="${esc(url)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(copy.action)}</a></p>
<p style="color:#475569;font-size:14px">${esc(footer)}<br>${esc(shell.linkLabel)}: ${esc(url)}</p></body></html>`
	const headers = unsubscribe
		? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
		: undefined
	// A subject is one line whatever a placeholder held.
	const subject = `${fill(copy.subject).replace(/[\r\n]+/g, ' ')} · ${site}`
	return { kind, to, subject, text, html, ...(headers ? { headers } : {}) }
}

/**
 * What a mail is written with: the site it comes from (a job's, app/content/site.server.ts's
 * jobMailContext) and the origin its links name (decision 0062).
 */
export type MailContext = Pick<RequestContext, 'cms' | 'site' | 'locale' | 'tenant' | 'db' | 'origin'> & {
	mailer: Mailer
	env: Pick<Env, 'APP_BASE_DOMAIN'>
}

/**
 * Hands a message to the mailer; throws when no transport took it, so that the job sending it is
 * retried (email/sent and email/failed are logged per attempt by the mailer).
 */
export async function deliver(ctx: { mailer: Mailer }, email: Email) {
	if (!(await ctx.mailer.send(email))) throw new Error(`no transport accepted the ${email.kind} email`)
}

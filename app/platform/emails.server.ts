import type { RequestContext } from '#app/context.ts'
import { EMAIL_CATALOGUES, type EmailKind } from '#app/i18n/emails.ts'
import type { Locale, TokenType } from '#db/schema/values.ts'
import type { Email, Mailer } from './mailer.server.ts'
import { absoluteUrl } from './forms.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { loadSiteChrome, type SiteScope } from '../content/site.server.ts'
import { issueToken } from '../accounts/tokens.server.ts'
import { escapeHtml as esc } from './html.ts'

export interface EmailInput {
	kind: EmailKind
	to: string
	locale: Locale
	site: string
	url: string
	/** Invitations: the role offered. */
	role?: keyof (typeof EMAIL_CATALOGUES)['en']['roles']
	/** The body's other placeholders (a course's and an entry's title, a learner's name), as plain text. */
	values?: Record<string, string>
	/**
	 * A reminder's one-click unsubscribe URL (RFC 8058, decision 0047): `{unsubscribe}` in the copy, and the
	 * List-Unsubscribe and List-Unsubscribe-Post headers, which both transports pass on.
	 */
	unsubscribe?: string
}

/** One transactional email, as HTML and plain text, in the recipient's locale. */
export function composeEmail({ kind, to, locale, site, url, role, values = {}, unsubscribe }: EmailInput): Email {
	const catalogue = EMAIL_CATALOGUES[locale] ?? EMAIL_CATALOGUES.en
	const copy = catalogue.kinds[kind]
	const filled: Record<string, string> = { ...values, site, role: role ? catalogue.roles[role] : '' }
	if (unsubscribe) filled.unsubscribe = unsubscribe
	// One pass each, so a value that itself contains `{site}` (a learner's name, an announcement) is never expanded.
	const fill = (template: string) => template.replace(/\{(\w+)\}/g, (whole, name: string) => filled[name] ?? whole)
	const body = fill(copy.body)
	const footer = fill(copy.footer)
	const text = `${body}\n\n${copy.action}: ${url}\n\n${footer}\n\n— ${site}`
	// pre-line: an announcement's paragraphs stay paragraphs.
	const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p style="font-weight:700">${esc(site)}</p><p style="white-space:pre-line">${esc(body)}</p>
<p><a href="${esc(url)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(copy.action)}</a></p>
<p style="color:#475569;font-size:14px">${esc(footer)}<br>${esc(catalogue.linkLabel)}: ${esc(url)}</p></body></html>`
	const headers = unsubscribe
		? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
		: undefined
	// A subject is one line whatever a placeholder held.
	const subject = `${fill(copy.subject).replace(/[\r\n]+/g, ' ')} · ${site}`
	return { kind, to, subject, text, html, ...(headers ? { headers } : {}) }
}

/** Where each token's link leads, and which email carries it. */
const TOKEN_LINKS: Record<TokenType, { path: string; kind: EmailKind }> = {
	email_verify: { path: '/learn/verify/', kind: 'verification' },
	password_reset: { path: '/learn/reset/', kind: 'password_reset' },
	magic_link: { path: '/learn/magic/', kind: 'magic_link' },
	email_change: { path: '/learn/account/email/', kind: 'email_change' },
}

/** What a mail is written with: the site it comes from (a job's, app/platform/job-handlers.server.ts). */
export type MailContext = SiteScope & Pick<RequestContext, 'db' | 'origin'> & { mailer: Mailer }

/**
 * Hands a message to the mailer; throws when no transport took it, so that the job sending it is
 * retried (email/sent and email/failed are logged per attempt by the mailer).
 */
export async function deliver(ctx: { mailer: Mailer }, email: Email) {
	if (!(await ctx.mailer.send(email))) throw new Error(`no transport accepted the ${email.kind} email`)
}

/**
 * Issues a token of the type for the user and mails its link to `to` in the user's locale. Run by
 * a job's handler: the raw token exists only in this call and the mail; a failed delivery throws
 * (the job is retried and issues a new token; the unsent one is never known to anyone).
 */
export async function mailTokenLink(
	ctx: MailContext,
	user: { id: string; locale: Locale },
	to: string,
	type: TokenType,
	payload?: string,
	/** Query of the link (the verification link's callbackUrl, already checked). */
	query?: Record<string, string>,
	/** The mail that carries the link, when it is not the token's own (a reset link in a change notice). */
	kindOf?: EmailKind,
) {
	const token = await issueToken(ctx.db, user.id, type, { payload })
	const site = await loadSiteChrome(ctx)
	const { path } = TOKEN_LINKS[type]
	const kind = kindOf ?? TOKEN_LINKS[type].kind
	const { locale } = user
	const search = query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''
	await deliver(
		ctx,
		composeEmail({
			kind,
			to,
			locale,
			site: site.name,
			url: absoluteUrl(ctx, localePath(locale, `${path}${token}${search}`)),
		}),
	)
}

import type { RequestContext } from '#app/context.ts'
import type { TokenType } from '#db/schema/values.ts'
import type { Email } from './email.server.ts'
import { absoluteUrl } from './forms.server.ts'
import { loadSiteChrome } from './site.server.ts'
import { issueToken } from './tokens.server.ts'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function compose(kind: string, to: string, site: string, subject: string, lines: string[], action: { label: string; url: string }, footer: string): Email {
	const text = `${lines.join('\n\n')}\n\n${action.label}: ${action.url}\n\n${footer}\n\n— ${site}`
	const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#0f172a">
<p style="font-weight:700">${esc(site)}</p>${lines.map((l) => `<p>${esc(l)}</p>`).join('')}
<p><a href="${esc(action.url)}" style="display:inline-block;background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(action.label)}</a></p>
<p style="color:#475569;font-size:14px">${esc(footer)}<br>${esc(action.url)}</p></body></html>`
	return { kind, to, subject: `${subject} · ${site}`, text, html }
}

export const emails = {
	verification: (to: string, site: string, url: string) =>
		compose('verification', to, site, 'Confirm your email address', ['Welcome! Please confirm that this is your email address.'], { label: 'Confirm email', url }, 'The link works for 24 hours. If you did not sign up, ignore this email.'),
	passwordReset: (to: string, site: string, url: string) =>
		compose('password_reset', to, site, 'Reset your password', ['Someone asked to reset the password of your account.'], { label: 'Choose a new password', url }, 'The link works for one hour and only once. If it was not you, ignore this email.'),
	magicLink: (to: string, site: string, url: string) =>
		compose('magic_link', to, site, 'Your sign-in link', ['Use this link to sign in without a password.'], { label: 'Sign in', url }, 'The link works for 15 minutes and only once. If you did not ask for it, ignore this email.'),
	emailChange: (to: string, site: string, url: string) =>
		compose('email_change', to, site, 'Confirm your new email address', ['Please confirm that you want to use this address for your account.'], { label: 'Confirm new address', url }, 'The link works for one hour. If you did not ask for this change, ignore this email.'),
	invitation: (to: string, site: string, url: string, role: string) =>
		compose('invitation', to, site, 'You are invited', [`You have been invited to join ${site} as ${role.replace('_', ' ')}.`], { label: 'Accept invitation', url }, 'The invitation works for 7 days.'),
}

/** Where each token's link leads, and the email that carries it. */
const TOKEN_LINKS: Record<TokenType, { path: string; compose: (to: string, site: string, url: string) => Email }> = {
	email_verify: { path: '/learn/verify/', compose: emails.verification },
	password_reset: { path: '/learn/reset/', compose: emails.passwordReset },
	magic_link: { path: '/learn/magic/', compose: emails.magicLink },
	email_change: { path: '/learn/account/email/', compose: emails.emailChange },
}

/** Issues a token of the type for the user and mails its link to `to`. Never throws on delivery. */
export async function mailTokenLink(ctx: RequestContext, userId: string, to: string, type: TokenType, payload?: string) {
	const token = await issueToken(ctx.db, userId, type, { payload })
	const site = await loadSiteChrome(ctx)
	const { path, compose } = TOKEN_LINKS[type]
	return ctx.mailer.send(compose(to, site.name, absoluteUrl(ctx, `${path}${token}`)))
}

import { createHash } from 'node:crypto'

/**
 * The Content-Security-Policy of every rendered page. Scripts run only from
 * this origin or inline with the response's nonce (or, on pages served from
 * the page cache, with their hashes). Style attributes carry the tenant's
 * theme colours and progress widths, so inline styles stay allowed; images
 * may come from identity providers (avatars) over https. No form-action:
 * Chromium applies it to the redirect chain of a form post, and the external
 * sign-in forms redirect to the identity provider.
 */
export function contentSecurityPolicy(scriptSources: string) {
	return [
		"default-src 'self'",
		`script-src 'self' ${scriptSources}`,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: https:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"frame-ancestors 'none'",
	].join('; ')
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g

/**
 * A page rendered with a nonce, made safe to serve to many visitors: the
 * nonce attributes come out of the HTML and the policy lists the sha256 of
 * each inline script instead, so no nonce is ever served twice.
 */
export function hashInlineScripts(html: string, policy: string) {
	const nonce = /'nonce-([^']+)'/.exec(policy)?.[1]
	if (!nonce) return { html, policy }
	const hashes = new Set<string>()
	const stripped = html.replaceAll(` nonce="${nonce}"`, '')
	for (const [, attrs, body] of stripped.matchAll(INLINE_SCRIPT)) {
		if (/\ssrc=/.test(attrs) || body === '') continue
		hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`)
	}
	return { html: stripped, policy: policy.replace(` 'nonce-${nonce}'`, [...hashes].map((h) => ` ${h}`).join('')) }
}

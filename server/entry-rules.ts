/**
 * What the server entry decides about a request before routing, one rule per function, each on
 * the normal form of the request target (server/request-target.ts). server/handle.ts runs them in
 * order; each returns null when the request may go on.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { I18n } from '#app/i18n/index.ts'
import { errorCodeFor, jsonError } from '#app/platform/errors.ts'
import { HAND_IN_MAX_BODY_BYTES, isHandInPath, isMultipart } from '#app/learning/hand-in-limits.ts'
import { ALLOWED_METHODS, type RequestTarget } from './request-target.ts'

type StatusText = I18n['m']['common']['status']

/** A request answered before routing: the JSON envelope under /api/, else a branded page with this text. */
export interface Refusal {
	status: number
	error: string
	title: keyof StatusText
	message: keyof StatusText
	headers?: Record<string, string>
}

/** Request bodies above this answer 413 before anything reads them (forms, JSON, the webhook's own 64 KiB limit is lower). */
export const MAX_BODY_BYTES = 1024 * 1024

/** A method or target form the site never answers (TRACE, absolute-form targets, NUL in the path). */
export function refuseTarget(target: RequestTarget): Refusal | null {
	if (target.kind !== 'refused') return null
	return target.status === 405
		? {
				status: 405,
				error: 'Method not allowed',
				title: 'refusedTitle',
				message: 'methodNotAllowed',
				headers: { allow: ALLOWED_METHODS },
			}
		: { status: 400, error: 'Bad request', title: 'refusedTitle', message: 'badRequest' }
}

/**
 * Bodies must declare their length (browsers always do), so the limit holds before reading. An
 * entry's multipart hand-in may carry files (HAND_IN_MAX_BODY_BYTES); every other body MAX_BODY_BYTES.
 * `pagePath` is the normal-form path without its locale prefix.
 */
export function refuseBody(method: string | undefined, headers: IncomingHttpHeaders, pagePath: string): Refusal | null {
	if (headers['transfer-encoding'] && headers['content-length'] === undefined && !isSafeMethod(method))
		return { status: 411, error: 'Send the body with a Content-Length', title: 'refusedTitle', message: 'noLength' }
	const handIn = isHandInPath(pagePath) && isMultipart(headers['content-type'])
	if (Number(headers['content-length'] ?? 0) > (handIn ? HAND_IN_MAX_BODY_BYTES : MAX_BODY_BYTES))
		return { status: 413, error: 'The request body is too large', title: 'tooLargeTitle', message: 'tooLarge' }
	return null
}

/**
 * Every hand-in slot of the process is taken and none came free in time (decision 0034): answered
 * before the body is read, so the client sends it again later instead of it waiting in our memory.
 */
export const HAND_INS_BUSY: Refusal = {
	status: 503,
	error: 'Too many hand-ins at once',
	title: 'handInsBusyTitle',
	message: 'handInsBusy',
	headers: { 'retry-after': '5' },
}

/**
 * A multipart body sent to an entry: the one request whose body may carry files
 * (HAND_IN_MAX_BODY_BYTES). Any method that carries a body, not POST alone: React Router runs an
 * action for PUT and DELETE too, and none may pass the hand-in slots.
 */
export function isHandInUpload(method: string | undefined, headers: IncomingHttpHeaders, pagePath: string) {
	return !isSafeMethod(method) && isHandInPath(pagePath) && isMultipart(headers['content-type'])
}

// A SAML IdP answers with a form it posts from its own site to the ACS; the assertion carries its
// own signature and names a one-use sign-in of this host (decision 0077).
const SAML_ACS = /^\/api\/auth\/saml\/[\w-]{1,64}\/acs$/

/**
 * Cross-site request forgery check for every unsafe request but the webhook and a SAML ACS (which
 * sign their own): browsers send Origin (and Sec-Fetch-Site) on form posts, so a post from another site,
 * including another tenant's subdomain, is refused. Requests without either header do not come
 * from a browser form. Deletes an `Origin: null` it accepts, which React Router would refuse.
 */
export function refuseCrossSite(
	method: string | undefined,
	headers: IncomingHttpHeaders,
	origin: string,
	path: string,
): Refusal | null {
	if (isSafeMethod(method) || path === '/api/cms/revalidate') return null
	const given = firstHeader(headers.origin)
	const site = firstHeader(headers['sec-fetch-site'])
	if (SAML_ACS.test(path)) {
		// An IdP page under `Referrer-Policy: no-referrer` posts with `Origin: null`.
		if (given === 'null') delete headers.origin
		return null
	}
	// Token pages are served with `Referrer-Policy: no-referrer`, under which browsers send
	// `Origin: null` on the page's own form post; Sec-Fetch-Site (which no page can forge)
	// still says same-origin. Any other `Origin: null` (sandboxed frames, hostile pages) is refused.
	if (given === 'null' && site === 'same-origin') {
		delete headers.origin
		return null
	}
	const sameOrigin =
		given !== undefined ? given === origin : site === undefined || site === 'same-origin' || site === 'none'
	return sameOrigin
		? null
		: { status: 403, error: 'Cross-site request refused', title: 'refusedTitle', message: 'crossSite' }
}

// An external sign-in that was under way when the tenant was suspended ends on
// the spec's refusal page (oauth_tenant_suspended), not on the 503; and
// security.txt stays reachable so that vulnerabilities can still be reported.
// Whole normal-form paths, never prefixes.
const SUSPENDED_PASSTHROUGH = [
	/^\/api\/auth\/callback\/[a-z]+$/,
	/^\/learn\/sign-in\/error$/,
	/^\/\.well-known\/security\.txt$/,
]

/** Whether a suspended tenant still answers this page path (without its locale prefix). */
export function servedWhileSuspended(pagePath: string) {
	return SUSPENDED_PASSTHROUGH.some((allowed) => allowed.test(pagePath))
}

const MARKDOWN_URL = /^\/(blog\/|learn\/course\/)?([a-z0-9][a-z0-9-]*)\.md$/

/** The URL the router is given: the favicon and the Markdown of discovery URLs are route handlers. */
export function routerUrl(path: string, search: string) {
	// The spec rewrites /favicon.ico to /api/favicon.
	if (path === '/favicon.ico') return '/api/favicon'
	// /<page>.md, /blog/<post>.md, /learn/course/<course>.md.
	const markdown = MARKDOWN_URL.exec(path)
	if (markdown) return `/api/aeo/markdown/${markdown[1] ?? ''}${markdown[2]}${search}`
	return path + search
}

const TOKEN_PAGE = /^\/(?:learn\/(?:verify|reset|magic|unsubscribe|account\/email)\/[^/]+|invite\/[^/]+|admin\/enter)$/

/**
 * A token in the URL never leaves in a Referer header, not even to this site's own assets;
 * nor one carried in a callbackUrl (a token page's sign-in redirect).
 */
export function keepsTokenFromReferer(pagePath: string, search: string) {
	return TOKEN_PAGE.test(pagePath) || /[?&]callbackUrl=/.test(search)
}

/**
 * Under /api/ every error is the JSON envelope, also for URLs no route matches; the REST API's
 * problem details (application/problem+json, decision 0071) carry it already.
 */
export async function apiEnvelope(response: Response) {
	if (response.status < 400 || /^application\/(problem\+)?json/.test(response.headers.get('content-type') ?? ''))
		return response
	await response.body?.cancel()
	const message = response.status === 404 ? 'Not found' : 'Request refused'
	const envelope = jsonError(response.status, errorCodeFor(response.status), message)
	// A rejected session's cookie is still cleared.
	for (const cookie of response.headers.getSetCookie()) envelope.headers.append('set-cookie', cookie)
	return envelope
}

function isSafeMethod(method: string | undefined) {
	return method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
}

function firstHeader(value: string | string[] | undefined) {
	const v = Array.isArray(value) ? value[0] : value
	return v?.split(',')[0]?.trim() || undefined
}

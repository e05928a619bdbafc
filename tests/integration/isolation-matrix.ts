// Tenant isolation matrix (issue 12), generated from the route table.
//
// Every route of app/routes.ts is requested, as a GET and (when its module has
// an action) as a POST, by every role on every kind of host, with the ids,
// slugs and tokens of ANOTHER tenant's records in every path parameter and
// form field. The expected status of each case comes from compact rules per
// route pattern (below) that restate the spec: Authentication 10 and 11, the
// admin pages table, Errors (403 for non-admins, 404 for course_admins outside
// their courses and for cross-tenant access). On top of the statuses the test
// asserts zero cross-tenant reads (no response carries the other tenant's
// record data) and zero cross-tenant writes (the other tenant's rows are
// byte-for-byte the same before and after every attempt).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, inArray, or } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import routeConfig from '#app/routes.ts'
import { PREFIXED_LOCALES } from '#app/i18n/locales.ts'
import { issueCertificate } from '#app/certificates/issue.server.ts'
import { createCmsClient } from '#app/content/cms.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { issueToken } from '#app/accounts/tokens.server.ts'
import { unsubscribeToken } from '#app/reminders/unsubscribe.server.ts'
import { newCalendarLink } from '#app/learning/calendar-feed.server.ts'
import { createIdentityProviderSteps } from '#db/identity-providers.ts'
import { sealSecret } from '#app/accounts/sso/secret-box.server.ts'
import { newSigningKeyPair } from '#app/accounts/sso/certificate.server.ts'
import { newSpKeys } from '#app/accounts/sso/saml.server.ts'
import { assignCourseAdmin, markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { newId } from '#db/ids.ts'
import { createFileRow, recordSubmissionSteps } from '#db/submissions.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { createEndpoint, webhookEventSteps } from '#db/webhooks.ts'
import { insertApiKeySteps } from '#db/api-keys.ts'
import { findUserById, updateUser, type User } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import type { Dialect } from '#db/client.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { multipartBody } from '#tests/support/client.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createInvitation, createUser, recordAttempt, writeAudit } from '#tests/support/repository.ts'

// ---------------------------------------------------------------------------
// The route table, flattened (nested children and the `id` option included).

interface ConfigEntry {
	id?: string
	path?: string
	index?: boolean
	file: string
	children?: ConfigEntry[]
}
interface FlatRoute {
	id: string
	/** The URL pattern without a leading slash ('' for the index route). */
	pattern: string
	file: string
}

/**
 * The routes of the matrix: the table holds each route once. A locale prefix
 * (/es/learn/...) serves the same table under its basename (server/app.ts) and
 * only picks the locale, so the matrix's answers carry over.
 */
function matrixRoutes() {
	return flattenRoutes(routeConfig as unknown as ConfigEntry[])
}
const PREFIXED = new RegExp(`^(${PREFIXED_LOCALES.join('|')})(/|$)`)

function flattenRoutes(entries: readonly ConfigEntry[], parent = ''): FlatRoute[] {
	return entries.flatMap((entry) => {
		const own = entry.path ?? ''
		const pattern = [parent, own].filter(Boolean).join('/')
		const id = entry.id ?? entry.file.replace(/\.[^./]+$/, '')
		// A pathless layout route contributes no URL of its own, only its children's.
		const self = entry.index || entry.path !== undefined ? [{ id, pattern, file: entry.file }] : []
		return [...self, ...flattenRoutes(entry.children ?? [], pattern)]
	})
}

/** Whether a route module exports an action (a POST target), read from its source. */
function hasAction(file: string) {
	const source = readFileSync(join('app', file), 'utf8')
	return /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b[^}]*\}/.test(
		source,
	)
}

// ---------------------------------------------------------------------------
// Roles, hosts and the rules of the expectations table.

const ROLES = [
	'anonymous',
	'student',
	'course_admin',
	'unassigned_course_admin',
	'tenant_admin',
	'super_admin',
] as const
type Role = (typeof ROLES)[number]
/** own: acme.localhost; custom: learn.acme.test (Acme's custom domain); other: globex.localhost; apex: localhost. */
const HOSTS = {
	own: 'acme.localhost',
	custom: 'learn.acme.test',
	other: 'globex.localhost',
	apex: 'localhost',
} as const
type HostKind = keyof typeof HOSTS

/**
 * The Acme roles carry the session their browser got on acme.localhost to
 * globex.localhost and the apex: there it must count for nothing (a visitor).
 * The super_admin signs in on the apex and enters each tenant host through the
 * tenant override; on a tenant host it is scoped to that tenant.
 */
function effectiveRole(role: Role, host: HostKind): Role {
	return (host === 'other' || host === 'apex') && role !== 'super_admin' ? 'anonymous' : role
}

interface Expectation {
	status: number
	/** A prefix the Location header must start with. */
	location?: string
	/** A super_admin on the platform side: another tenant's data is theirs to read and change. */
	platform?: boolean
}
interface Ctx {
	role: Role
	host: HostKind
	tenantHost: boolean
}
type Rule = (c: Ctx) => Expectation | number
const SIGN_IN = { status: 302, location: '/learn/sign-in?callbackUrl=' }

const all =
	(status: number, location?: string): Rule =>
	() => ({ status, location })
const tenantOnly =
	(onTenant: number, onApex = 404): Rule =>
	(c) =>
		c.tenantHost ? onTenant : onApex
/** Needs a session (Authentication 10): visitors go to sign-in. */
const session =
	(signedIn: Rule): Rule =>
	(c) =>
		c.role === 'anonymous' ? SIGN_IN : signedIn(c)
/** /admin pages outside a course: tenant_admin and super_admin; students 403, course_admins 404. */
const admin = (allowed: Rule): Rule =>
	session((c) => {
		if (c.role === 'student') return 403
		if (c.role === 'course_admin' || c.role === 'unassigned_course_admin') return 404
		return allowed(c)
	})
/** /admin/courses/<slug>/{dashboard,settings,export}: adds course_admins assigned to <slug> (never the other tenant's course). */
const courseAdmin = (allowed: Rule): Rule =>
	session((c) => {
		if (c.role === 'student') return 403
		if (c.role === 'course_admin' || c.role === 'unassigned_course_admin') return 404
		return allowed(c)
	})
/** super_admin only (tenants); tenant_admin 403. */
const superOnly = (allowed: Rule): Rule =>
	session((c) => {
		if (c.role === 'student' || c.role === 'tenant_admin') return 403
		if (c.role === 'course_admin' || c.role === 'unassigned_course_admin') return 404
		return allowed(c)
	})
/** The super_admin on the apex acts platform-wide: the other tenant's record is found there. */
const onApexPlatform =
	(status: number, elsewhere: number): Rule =>
	(c) =>
		c.host === 'apex' && c.role === 'super_admin' ? { status, platform: true } : elsewhere

// ---------------------------------------------------------------------------
// The other tenant's records, substituted into paths and forms.

interface Foreign {
	tenant: Tenant
	studentId: string
	courseAdminId: string
	courseAdminEmail: string
	course: string
	entry: string
	/** A hand-in of the student's, awaiting grading. */
	submission: string
	page: string
	post: string
	siteAsset: string
	courseAsset: string
	/** A file the other tenant's student handed in (decision 0027). */
	file: string
	/** The other tenant's student's certificate (decision 0038): its public id and its row id. */
	certificate: string
	certificateId: string
	/** One of the other tenant's API keys (decision 0071). */
	apiKeyId: string
	tokens: {
		email_verify: string
		password_reset: string
		magic_link: string
		email_change: string
		/** The other tenant's student's one-click unsubscribe token (decision 0047). */
		unsubscribe: string
	}
	/** The other tenant's student's calendar feed (decision 0045): `<token>.ics`. */
	calendar: string
	/** The other tenant's identity provider (decision 0069). */
	provider: string
	/** A SAML provider of the tenant (decision 0077). */
	samlProvider: string
	invite: string
	/** The id of that invitation (the pending list's resend and revoke post it). */
	inviteId: string
	/** One address per role for email fields (rate limits count per address). */
	pool: string[]
	/** Record data only the other tenant's staff may see. */
	privateMarkers: string[]
	/** The other tenant's webhook endpoint and one event of its (decision 0072). */
	webhookEndpoint: string
	webhookEvent: string
	/** The other tenant's public content: never on this tenant's host. */
	publicMarkers: string[]
}
/** This host's own course (for cases that mix an own path with a foreign form field). */
const OWN_COURSE: Record<HostKind, string> = {
	own: 'intro-to-web',
	custom: 'intro-to-web',
	other: 'globex-onboarding',
	apex: 'intro-to-web',
}

interface Variant {
	form?: Record<string, string>
	/** Sent as a browser sends a form with a file (multipart/form-data, with one small text file). */
	multipart?: boolean
	/** Path parameters overriding the foreign ones (an own course with a foreign user in the form). */
	params?: Record<string, string>
	/** A query string for this post only (`?preview=1`). */
	query?: string
	rule?: Rule
	label?: string
}
interface RouteSpec {
	params?: (f: Foreign, c: Ctx) => Record<string, string>
	query?: (f: Foreign) => string
	get: Rule
	/** Text the GET answer must not contain (e.g. a form that only a valid token shows). */
	getMustNotContain?: string[]
	post?: { rule: Rule; variants: (f: Foreign, c: Ctx & { roleIndex: number }) => Variant[] }
}

const NEW_PASSWORD = 'Matrix-Isolation-Passphrase-42'
/** The other tenant's student's own password (no account of this tenant has it). */
const FOREIGN_PASSWORD = 'Matrix-Foreign-Student-Passphrase-7'

/** The expectations table: one line (or a few) per route pattern. */
const SPEC: Record<string, RouteSpec> = {
	'': { get: all(200) },
	learn: { get: tenantOnly(200) },

	// Accounts
	'learn/sign-in': {
		get: (c) => (c.role === 'anonymous' ? 200 : 302),
		// The other tenant's user with the right password: no such account on this host (401). A signed-in
		// user stays who they are: the page's loader sends them to their landing (302) and no session is issued.
		post: {
			rule: (c) => (c.role === 'anonymous' ? 401 : 302),
			variants: (f, c): Variant[] => [{ form: { email: f.pool[c.roleIndex], password: DEMO_PASSWORD } }],
		},
	},
	'learn/sign-in/error': { get: all(200) },
	'learn/sign-up': {
		get: tenantOnly(200),
		// Creates an independent account of this tenant (identities are per tenant), never touches the other's.
		post: {
			// The check-your-email page is the answer itself, naming the address (issue 40).
			rule: (c) => (c.tenantHost ? 200 : 404),
			variants: (f, c): Variant[] => [
				{ form: { name: 'Matrix Visitor', email: f.pool[c.roleIndex], password: NEW_PASSWORD } },
			],
		},
	},
	// Opening asks and its button confirms (decision 0032): the other tenant's link is unknown to both.
	'learn/verify/:token': {
		params: (f) => ({ token: f.tokens.email_verify }),
		get: all(200),
		getMustNotContain: ['Confirm and sign in'],
		post: { rule: all(200), variants: (): Variant[] => [{ form: {} }] },
	},
	'learn/forgot': {
		get: all(200),
		post: {
			rule: all(302, '/learn/forgot?notice=sent'),
			variants: (f, c): Variant[] => [{ form: { email: f.pool[c.roleIndex] } }],
		},
	},
	'learn/reset/:token': {
		params: (f) => ({ token: f.tokens.password_reset }),
		get: all(200),
		getMustNotContain: ['name="password"'],
		post: { rule: all(410), variants: (): Variant[] => [{ form: { password: NEW_PASSWORD, confirm: NEW_PASSWORD } }] },
	},
	'learn/magic': {
		// Acme has magic links, Globex has them off; the apex has none.
		get: (c) => (c.host === 'own' || c.host === 'custom' ? 200 : { status: 302, location: '/learn/sign-in' }),
		post: {
			rule: (c) =>
				c.host === 'own' || c.host === 'custom'
					? { status: 302, location: '/learn/magic?notice=sent' }
					: { status: 302, location: '/learn/sign-in' },
			variants: (f, c): Variant[] => [{ form: { email: f.pool[c.roleIndex] } }],
		},
	},
	// Opening the link asks; the confirm post signs in. Another tenant's token is invalid here, and stays unused.
	'learn/magic/:token': {
		params: (f) => ({ token: f.tokens.magic_link }),
		get: (c) => (c.host === 'own' || c.host === 'custom' ? 200 : { status: 302, location: '/learn/sign-in' }),
		post: {
			rule: (c) => (c.host === 'own' || c.host === 'custom' ? 200 : { status: 302, location: '/learn/sign-in' }),
			variants: (): Variant[] => [{ form: {} }],
		},
	},
	// Each intent acts on the signed-in account only: the other tenant's ids and addresses in the form change nothing there.
	'learn/account': {
		get: session(all(200)),
		post: {
			rule: session(all(302, '/learn/account?notice=email-sent')),
			variants: (f): Variant[] => [
				{ form: { intent: 'change-email', newEmail: f.courseAdminEmail, currentPassword: DEMO_PASSWORD } },
				// The name is the signed-in user's own (they are renamed; nobody of the other tenant is).
				{
					form: { intent: 'name', name: 'Matrix Renamed', userId: f.studentId, email: f.courseAdminEmail },
					rule: session(all(302, '/learn/account?notice=name-saved')),
				},
				// A password change tries the signed-in user's current password, never that of the user the form names:
				// the other tenant's student's password is wrong here (400) and theirs stays as it was.
				{
					form: {
						intent: 'change-password',
						oldPassword: FOREIGN_PASSWORD,
						newPassword: NEW_PASSWORD,
						userId: f.studentId,
						email: f.courseAdminEmail,
					},
					rule: session(all(400)),
				},
				// Every account of the matrix is confirmed (409); the other tenant's student is not, and gets no link.
				{
					form: { intent: 'resend-verification', userId: f.studentId, email: f.courseAdminEmail },
					rule: session(all(409)),
				},
			],
		},
	},
	// Another tenant's unsubscribe token: its signature is bound to that tenant, so it names nobody here.
	'learn/unsubscribe/:token': {
		params: (f) => ({ token: f.tokens.unsubscribe }),
		get: all(404),
		getMustNotContain: ['List-Unsubscribe'],
		post: { rule: all(404), variants: (): Variant[] => [{ form: { 'List-Unsubscribe': 'One-Click' } }] },
	},
	// The archive is the signed-in person's own (decision 0044): ids of the other tenant in the form change nothing.
	// A platform account has none on a tenant's site; a GET only leads back to the account page.
	'learn/account/data': {
		get: session(all(302, '/learn/account')),
		post: {
			rule: session((c) => (c.role === 'super_admin' ? 404 : 200)),
			variants: (f): Variant[] => [{ form: { userId: f.studentId, tenantId: f.tenant.id } }],
		},
	},
	'learn/account/email/:token': {
		params: (f) => ({ token: f.tokens.email_change }),
		get: session(all(200)),
		getMustNotContain: ['Confirm new address'],
		post: { rule: session(all(200)), variants: (): Variant[] => [{ form: {} }] },
	},
	// The locale switcher: changes only the signed-in user's own users.locale.
	'learn/locale': {
		get: all(302, '/'),
		post: { rule: all(303, '/learn'), variants: (): Variant[] => [{ form: { locale: 'en', redirectTo: '/learn' } }] },
	},
	'learn/sign-out': {
		get: (c) => (c.role === 'anonymous' ? { status: 302, location: '/' } : 200),
		post: { rule: all(302, '/'), variants: (): Variant[] => [{ form: {} }] },
	},
	'invite/:token': {
		params: (f) => ({ token: f.invite }),
		get: all(200),
		getMustNotContain: ['Accept invitation'],
		post: { rule: all(410), variants: (): Variant[] => [{ form: { name: 'Matrix Visitor', password: NEW_PASSWORD } }] },
	},

	// Learning: the other tenant's course does not exist here.
	'learn/dashboard': { get: session(all(200)) },
	'learn/course/:slug': { params: (f) => ({ slug: f.course }), get: all(404) },
	'learn/course/:slug/enroll': {
		params: (f) => ({ slug: f.course }),
		get: session(all(404)),
		post: { rule: session(all(404)), variants: (): Variant[] => [{ form: {} }] },
	},
	// Certificates: the other tenant's certificate is not found here, by anyone (decision 0038).
	'learn/certificates/:id': { params: (f) => ({ id: f.certificate }), get: session(all(404)) },
	// The other tenant's learner's calendar feed (decision 0045): a token that opens nothing on this host, for anyone.
	'learn/calendar/:file': { params: (f) => ({ file: f.calendar }), get: all(404) },
	'certificates/:id': { params: (f) => ({ id: f.certificate }), get: all(404) },
	'certificates/:id/credential': { params: (f) => ({ id: f.certificate }), get: all(404) },
	'.well-known/did.json': { get: tenantOnly(200) },
	'credentials/contexts/:name': { params: () => ({ name: 'credentials-v2' }), get: tenantOnly(200) },
	// Each tenant's own list 1 (both have a certificate in the matrix): never the other's bits or keys.
	'credentials/status/:list': { params: () => ({ list: '1' }), get: tenantOnly(200) },
	'learn/course/:slug/entry/:entrySlug': {
		params: (f) => ({ slug: f.course, entrySlug: f.entry }),
		get: session(all(404)),
		post: {
			rule: session(all(404)),
			variants: (f, c): Variant[] => [
				{ form: { intent: 'complete' } },
				{ form: { intent: 'submit-quiz', 'q:q-method': 'post' } },
				// The hand-in, as the form without files and with one: nothing stored, no file row kept.
				{ form: { intent: 'hand-in', text: 'Matrix hand-in' } },
				{ form: { intent: 'hand-in', text: 'Matrix hand-in', link: 'https://example.com/' }, multipart: true },
				// Staff trying a quiz in preview (graded, never stored): the other tenant's course is not found either.
				{ query: '?preview=1', form: { intent: 'submit-quiz', 'q:q-method': 'post' } },
				// This host's own quiz in preview with the other tenant's student in the form: graded for staff, nothing
				// stored for anyone; a learner or an unassigned course admin is not previewing (sent on, 302). Globex has
				// no such entry, and the apex no course.
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host], entrySlug: 'basics-quiz' },
					query: '?preview=1',
					form: { intent: 'submit-quiz', 'q:q-method': 'post', userId: f.studentId },
					rule: session((x) => {
						if (x.host === 'other' || x.host === 'apex') return 404
						return x.role === 'student' || x.role === 'unassigned_course_admin' ? 302 : 200
					}),
				},
			],
		},
	},

	// Administration
	admin: { get: admin(onApexPlatform(200, 200)) },
	// The list's resend (issue 40): another tenant's user is not found here; on the apex the platform finds them
	// (the other tenant's student is unconfirmed: a new link is mailed to them).
	'admin/users': {
		get: admin(onApexPlatform(200, 200)),
		post: {
			rule: admin(onApexPlatform(302, 404)),
			variants: (f): Variant[] => [{ form: { intent: 'resend-verification', userId: f.studentId } }],
		},
	},
	'admin/users/invite': {
		get: admin(tenantOnly(200)),
		// Inviting an address is this tenant's business; the other tenant's course is not a course here.
		post: {
			rule: admin(tenantOnly(400)),
			variants: (f, c): Variant[] => [
				{ form: { email: f.pool[c.roleIndex], role: 'course_admin', course_slug: f.course } },
			],
		},
	},
	// Another tenant's invitation is not found here: neither resent nor revoked (its row stays byte for byte).
	'admin/users/invitations': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(tenantOnly(404)),
			variants: (f): Variant[] => [
				{ form: { intent: 'resend', id: f.inviteId } },
				{ form: { intent: 'revoke', id: f.inviteId } },
				{ form: { intent: 'revoke', id: f.inviteId, confirmed: 'yes' } },
			],
		},
	},
	'admin/users/:id': {
		params: (f) => ({ id: f.studentId }),
		get: admin(onApexPlatform(200, 404)),
		post: {
			rule: admin(onApexPlatform(302, 404)),
			variants: (f): Variant[] => [
				{ form: { intent: 'change-role', confirmed: 'yes', role: 'tenant_admin' } },
				{ form: { intent: 'deactivate', confirmed: 'yes' } },
				{ form: { intent: 'force-sign-out', confirmed: 'yes' } },
				{ form: { intent: 'send-reset' } },
				// Enrollments are the tenant's: none on the apex either, where the platform may read the user.
				{ form: { intent: 'cancel-enrollment', confirmed: 'yes', courseSlug: f.course }, rule: admin(all(404)) },
				{ form: { intent: 'reenroll', courseSlug: f.course }, rule: admin(all(404)) },
			],
		},
	},
	// The other tenant's person is never found for erasure, confirmed or not, on any host (the apex has no tenant).
	'admin/users/:id/erase': {
		params: (f) => ({ id: f.studentId }),
		get: admin(all(404)),
		post: {
			rule: admin(all(404)),
			variants: (): Variant[] => [{ form: { intent: 'erase' } }, { form: { intent: 'erase', confirmed: 'yes' } }],
		},
	},
	// Nor is their data copied (decision 0063): the same 404 on every host, audited and mailed never.
	'admin/users/:id/data': {
		params: (f) => ({ id: f.studentId }),
		get: admin(all(404)),
		post: { rule: admin(all(404)), variants: (): Variant[] => [{ form: {} }] },
	},
	'admin/courses': {
		get: admin(all(200)),
		// Inviting an author goes to this tenant's site in the CMS; the local content service takes none (409).
		post: {
			rule: admin(tenantOnly(409)),
			variants: (f, c): Variant[] => [{ form: { intent: 'inviteAuthor', email: f.pool[c.roleIndex] } }],
		},
	},
	// On the apex the course pages show a hint to open the tenant (spec: "instead of 404").
	'admin/courses/:slug/dashboard': { params: (f) => ({ slug: f.course }), get: courseAdmin(tenantOnly(404, 200)) },
	'admin/courses/:slug/export': { params: (f) => ({ slug: f.course }), get: courseAdmin(all(404)) },
	'admin/courses/:slug/settings': {
		params: (f) => ({ slug: f.course }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: { rule: courseAdmin(all(404)), variants: (): Variant[] => [{ form: { sequential: 'on' } }] },
	},
	'admin/courses/:slug/enroll': {
		params: (f) => ({ slug: f.course }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: {
			rule: courseAdmin(all(404)),
			variants: (f, c): Variant[] => [
				{ form: { intent: 'emails', emails: f.pool[c.roleIndex] } },
				// This host's own course with the other tenant's people: each treated as an address nobody has here
				// (200; invited to this tenant, decision 0040), none enrolled, the other tenant's rows untouched.
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host] },
					form: { intent: 'emails', emails: `${f.pool[c.roleIndex]}\n${f.courseAdminEmail}` },
					rule: session((x) => {
						if (x.role === 'student') return 403
						if (x.role === 'unassigned_course_admin') return 404
						return tenantOnly(200, 404)(x)
					}),
				},
			],
		},
	},
	// Announcements (decision 0047): only this tenant's courses, only their staff.
	'admin/courses/:slug/announce': {
		params: (f) => ({ slug: f.course }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: {
			rule: courseAdmin(all(404)),
			variants: (): Variant[] => [{ form: { subject: 'Matrix announcement', message: 'To the other tenant' } }],
		},
	},
	'admin/courses/:slug/admins': {
		params: (f) => ({ slug: f.course }),
		get: admin(tenantOnly(404, 200)),
		post: {
			rule: admin(all(404)),
			variants: (f, c): Variant[] => [
				{ form: { intent: 'revoke', confirmed: 'yes', userId: f.courseAdminId } },
				{ form: { intent: 'assign', email: f.courseAdminEmail } },
				// This host's own course with the other tenant's course admin: not found here.
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host] },
					form: { intent: 'revoke', confirmed: 'yes', userId: f.courseAdminId },
				},
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host] },
					form: { intent: 'assign', email: f.courseAdminEmail },
					rule: admin(tenantOnly(400, 404)),
				},
			],
		},
	},
	// Grading: the other tenant's course is not found here, nor its submission under this host's own course.
	'admin/courses/:slug/submissions': {
		params: (f) => ({ slug: f.course }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: { rule: courseAdmin(all(404)), variants: (): Variant[] => [{ form: { intent: 'watch', watch: 'on' } }] },
	},
	'admin/courses/:slug/submissions/:id': {
		params: (f) => ({ slug: f.course, id: f.submission }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: {
			rule: courseAdmin(all(404)),
			variants: (f, c): Variant[] => [
				{ form: { intent: 'grade', score: '5', feedback: 'Matrix' } },
				{ form: { intent: 'return', feedback: 'Matrix' } },
				{ label: 'own course', params: { slug: OWN_COURSE[c.host] }, form: { intent: 'grade', score: '5' } },
			],
		},
	},
	// Second chances (decision 0037): the other tenant's learner is not found here, under this host's own course.
	'admin/courses/:slug/learners/:userId': {
		params: (f) => ({ slug: f.course, userId: f.studentId }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: {
			rule: courseAdmin(all(404)),
			// One variant (the super_admin's 60 admin mutations a minute are shared by every admin form of a phase): this
			// host's own course, where the guard that matters is the learner's tenant (the other course is 404 before it).
			variants: (f, c): Variant[] => [
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host] },
					form: { intent: 'grant-attempts', entry: 'basics-quiz', attempts: '1', reason: 'Matrix' },
				},
			],
		},
	},
	'admin/courses/:slug/certificates': {
		params: (f) => ({ slug: f.course }),
		get: courseAdmin(tenantOnly(404, 200)),
		post: {
			rule: courseAdmin(all(404)),
			variants: (f, c): Variant[] => [
				{ form: { intent: 'revoke', id: f.certificateId } },
				{ form: { intent: 'revoke', id: f.certificateId, confirmed: 'yes', reason: 'Matrix' } },
				{ form: { intent: 'reissue', id: f.certificateId, confirmed: 'yes' } },
				// This host's own course with the other tenant's certificate: not found here either.
				{
					label: 'own course',
					params: { slug: OWN_COURSE[c.host] },
					form: { intent: 'revoke', id: f.certificateId, confirmed: 'yes', reason: 'Matrix' },
				},
			],
		},
	},
	'admin/audit': { get: admin(onApexPlatform(200, 200)) },
	'admin/api-docs': { get: admin(all(200)) },
	'admin/api-docs/:file': { params: () => ({ file: 'swagger-ui.css' }), get: admin(all(200)) },
	// Tenants are a platform resource: the super_admin manages every tenant wherever it is signed in.
	// The tenant's own settings (decision 0064): this host's tenant only, 404 on the apex.
	'admin/settings': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(tenantOnly(302)),
			variants: (): Variant[] => [{ form: { intent: 'time-zone', timeZone: 'UTC' } }],
		},
	},
	// SCIM provisioning's page (decision 0070): this host's tenant only; another tenant's record named
	// as a token or a mapping to revoke or remove is not found here.
	'admin/settings/scim': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(tenantOnly(404)),
			variants: (f): Variant[] => [{ form: { intent: 'revoke-token', id: f.studentId } }],
		},
	},
	// Outgoing webhooks (decision 0072): this host's tenant's endpoints only, 404 on the apex.
	'admin/settings/webhooks': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(tenantOnly(404)),
			variants: (f): Variant[] => [
				{ form: { intent: 'rotate', endpointId: f.webhookEndpoint } },
				{ form: { intent: 'disable', endpointId: f.webhookEndpoint } },
				{ form: { intent: 'enable', endpointId: f.webhookEndpoint } },
				{ form: { intent: 'replay', endpointId: f.webhookEndpoint, eventId: f.webhookEvent } },
			],
		},
	},
	// The tenant's API keys (decision 0071): revoking the other tenant's key finds no key here (409).
	'admin/settings/api': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(tenantOnly(409)),
			variants: (f): Variant[] => [{ form: { intent: 'revoke', id: f.apiKeyId, confirmed: 'yes' } }],
		},
	},
	// The tenant's identity providers (decision 0069): another tenant's provider is 404 to every admin.
	'admin/settings/sign-in': {
		get: admin(tenantOnly(200)),
		post: {
			rule: admin(all(404)),
			variants: (f): Variant[] => [
				{ form: { intent: 'disable', providerId: f.provider } },
				{ form: { intent: 'delete', providerId: f.provider } },
				{
					form: {
						intent: 'save',
						providerId: f.provider,
						label: 'Matrix',
						issuer: 'http://127.0.0.1:9/iso',
						clientId: 'matrix',
						clientSecret: 'matrix-secret',
					},
				},
			],
		},
	},
	'admin/tenants': {
		get: superOnly(() => ({ status: 200, platform: true })),
		post: {
			rule: superOnly(() => ({ status: 302, location: '/admin/tenants', platform: true })),
			// The super_admin's own case re-activates an active tenant (a no-op), the others try to suspend it.
			variants: (f, c): Variant[] => [
				{
					form: {
						intent: 'status',
						confirmed: 'yes',
						tenantId: f.tenant.id,
						status: c.role === 'super_admin' ? 'active' : 'suspended',
					},
				},
			],
		},
	},
	// The platform's API keys (decision 0087): a tenant's key is no platform key, so revoking it finds none (409).
	'admin/tenants/api': {
		get: superOnly(() => ({ status: 200, platform: true })),
		post: {
			rule: superOnly(() => ({ status: 409, platform: true })),
			variants: (f): Variant[] => [{ form: { intent: 'revoke', id: f.apiKeyId, confirmed: 'yes' } }],
		},
	},
	// The tenant override with a proof for the other tenant (or none): 404 for everyone.
	'admin/enter': {
		query: (f) => `?user=${f.studentId}&proof=${encodeURIComponent(`enter-${f.tenant.id}.${Date.now()}.forged`)}`,
		get: all(404),
		post: { rule: all(404), variants: (): Variant[] => [{ form: {} }] },
	},
	'api/admin/impersonate/start': {
		get: all(405),
		post: {
			rule: (c) => (c.role === 'anonymous' ? 401 : c.role !== 'super_admin' ? 403 : c.tenantHost ? 404 : 400),
			variants: (f): Variant[] => [{ form: { userId: f.studentId } }],
		},
	},
	'api/admin/impersonate/stop': {
		get: all(405),
		post: {
			rule: (c) => (c.role === 'anonymous' ? 401 : 403),
			variants: (f): Variant[] => [{ form: { userId: f.studentId } }],
		},
	},

	// Authentication transport and the user's picture
	'api/auth/signout': {
		get: all(302, '/learn/sign-out'),
		post: { rule: all(302, '/learn/sign-out'), variants: (): Variant[] => [{ form: {} }] },
	},
	'api/auth/callback/:provider': {
		params: () => ({ provider: 'google' }),
		get: (c) => ({
			status: 302,
			location: c.tenantHost ? '/learn/sign-in/error' : '/learn/sign-in/error?error=oauth_tenant_unknown',
		}),
	},
	'api/auth/:provider': {
		params: () => ({ provider: 'google' }),
		get: all(302, '/learn/sign-in'),
		post: {
			rule: (c) => (c.tenantHost ? 302 : { status: 302, location: '/learn/sign-in/error?error=oauth_tenant_unknown' }),
			variants: (): Variant[] => [{ form: { callbackUrl: '/learn/dashboard' } }],
		},
	},
	// A tenant's own identity providers (decision 0069): another tenant's provider is not one of this host's.
	'api/auth/sso/:providerId/callback': {
		params: (f) => ({ providerId: f.provider }),
		query: (f) => `?code=forged&state=forged&iss=${encodeURIComponent('http://127.0.0.1:9/iso')}&p=${f.provider}`,
		get: (c) => ({
			status: 302,
			location: c.tenantHost ? '/learn/sign-in/error' : '/learn/sign-in/error?error=oauth_tenant_unknown',
		}),
	},
	'api/auth/sso/:providerId': {
		params: (f) => ({ providerId: f.provider }),
		get: all(302, '/learn/sign-in'),
		post: {
			rule: (c) => ({
				status: 302,
				location: c.tenantHost ? '/learn/sign-in/error' : '/learn/sign-in/error?error=oauth_tenant_unknown',
			}),
			variants: (): Variant[] => [{ form: { callbackUrl: '/learn/dashboard' } }],
		},
	},
	// A tenant's SAML providers (decision 0077): another tenant's provider has no metadata here, and its
	// ACS refuses whatever is posted (the RelayState names no sign-in of this host).
	'api/auth/saml/:providerId/metadata': {
		params: (f) => ({ providerId: f.samlProvider }),
		get: all(404),
	},
	'api/auth/saml/:providerId/acs': {
		params: (f) => ({ providerId: f.samlProvider }),
		get: all(302, '/learn/sign-in'),
		post: {
			rule: (c) => ({
				status: 302,
				location: c.tenantHost ? '/learn/sign-in/error' : '/learn/sign-in/error?error=oauth_tenant_unknown',
			}),
			variants: (f): Variant[] => [
				{
					form: {
						SAMLResponse: Buffer.from(`<samlp:Response ID="${f.samlProvider}"/>`).toString('base64'),
						RelayState: 'forged',
					},
				},
			],
		},
	},
	'api/test-idp/*': {
		params: () => ({ '*': 'google/userinfo' }),
		get: all(401),
		post: {
			rule: all(401),
			variants: (): Variant[] => [{ params: { '*': 'google/token' }, form: { client_id: 'forged', code: 'forged' } }],
		},
	},
	'api/avatar': { get: (c) => (c.role === 'anonymous' ? 401 : 200) },
	// Another tenant's file is 404 to everyone signed in, its own staff's session included (it counts for nothing here).
	'api/files/:fileId': { params: (f) => ({ fileId: f.file }), get: (c) => (c.role === 'anonymous' ? 401 : 404) },

	// Well-known and discovery files of the host
	'api/favicon': { get: all(200) },
	'icon.png': { get: all(200) },
	'apple-icon.png': { get: all(200) },
	'opengraph-image': { get: all(200) },
	'twitter-image': { get: all(200) },
	'robots.txt': { get: all(200) },
	'sitemap.xml': { get: all(200) },
	'sitemap/:id': { params: () => ({ id: '1' }), get: all(404) },
	'manifest.webmanifest': { get: all(200) },
	'.well-known/security.txt': { get: all(200) },
	'.well-known/change-password': { get: all(302, '/learn/forgot') },
	'llms.txt': { get: all(200) },
	'llms-full.txt': { get: all(200) },

	// Public content: the other tenant's pages and posts are not found here.
	blog: { get: all(200) },
	'blog/:slug': { params: (f) => ({ slug: f.post }), get: all(404) },
	':slug': { params: (f) => ({ slug: f.page }), get: all(404) },
	'api/aeo/markdown/:slug': { params: (f) => ({ slug: f.page }), get: all(404) },
	'api/aeo/markdown/blog/:slug': { params: (f) => ({ slug: f.post }), get: all(404) },
	'api/aeo/markdown/learn/course/:slug': { params: (f) => ({ slug: f.course }), get: all(404) },
	'api/cms/revalidate': {
		get: all(405),
		post: { rule: all(401), variants: (f): Variant[] => [{ form: { tag: `progress:${f.studentId}` } }] },
	},
	'api/cms/courses/:courseSlug/assets/:assetId': {
		params: (f) => ({ courseSlug: f.course, assetId: f.courseAsset }),
		get: all(404),
	},
	'api/cms/courses/:courseSlug/assets/:assetId/download': {
		params: (f) => ({ courseSlug: f.course, assetId: f.courseAsset }),
		get: all(404),
	},
	'api/cms/site/assets/:assetId': { params: (f) => ({ assetId: f.siteAsset }), get: all(404) },
	'api/cms/site/assets/:assetId/download': { params: (f) => ({ assetId: f.siteAsset }), get: all(404) },

	// SCIM (decision 0070): a bearer token of the host's tenant, never a session (401 whoever is signed
	// in); no SCIM on the apex (404). The other tenant's user by id, and a create, change nothing.
	'scim/v2/*': {
		params: (f) => ({ '*': `Users/${f.studentId}` }),
		get: tenantOnly(401),
		post: {
			rule: tenantOnly(401),
			variants: (f): Variant[] => [{ params: { '*': 'Users' }, form: { userName: f.pool[0]! } }],
		},
	},
	// The REST API (decision 0071): a session is no API key, so every call is 401, the other tenant's ids or not.
	'api/v1/users': {
		get: all(401),
		post: { rule: all(401), variants: (f): Variant[] => [{ form: { email: f.courseAdminEmail } }] },
	},
	'api/v1/users/:userId': { params: (f) => ({ userId: f.studentId }), get: all(401) },
	...Object.fromEntries(
		['role', 'deactivate', 'reactivate'].map((verb) => [
			`api/v1/users/:userId/${verb}`,
			{
				params: (f: Foreign) => ({ userId: f.studentId }),
				get: all(405),
				post: { rule: all(401), variants: (): Variant[] => [{ form: { role: 'tenant_admin' } }] },
			},
		]),
	),
	'api/v1/users/:userId/progress/:courseSlug': {
		params: (f) => ({ userId: f.studentId, courseSlug: f.course }),
		get: all(401),
	},
	'api/v1/enrollments': {
		get: all(401),
		post: { rule: all(401), variants: (f): Variant[] => [{ form: { userId: f.studentId, course: f.course } }] },
	},
	'api/v1/enrollments/:enrollmentId/cancel': {
		params: (f) => ({ enrollmentId: f.studentId }),
		get: all(405),
		post: { rule: all(401), variants: (): Variant[] => [{ form: {} }] },
	},
	'api/v1/quiz-attempts': { get: all(401) },
	'api/v1/submissions': { get: all(401) },
	'api/v1/certificates': { get: all(401) },
	'api/v1/certificates/:certificateId': { params: (f) => ({ certificateId: f.certificateId }), get: all(401) },
	'api/v1/certificates/:certificateId/revoke': {
		params: (f) => ({ certificateId: f.certificateId }),
		get: all(405),
		post: { rule: all(401), variants: (): Variant[] => [{ form: { reason: 'Matrix' } }] },
	},
	'api/v1/courses': { get: all(401) },
	// The platform's (decision 0087): a session is no key, the other tenant's id changes nothing.
	'api/v1/tenants': {
		get: all(401),
		post: {
			rule: all(401),
			variants: (f): Variant[] => [{ form: { slug: 'matrix', name: 'Matrix', adminEmail: f.courseAdminEmail } }],
		},
	},
	'api/v1/tenants/:tenantId': { params: (f) => ({ tenantId: f.tenant.id }), get: all(401) },
	'api/v1/tenants/:tenantId/status': {
		params: (f) => ({ tenantId: f.tenant.id }),
		get: all(405),
		post: { rule: all(401), variants: (): Variant[] => [{ form: { status: 'suspended' } }] },
	},

	'api/health': { get: all(200) },
	'api/health/live': { get: all(200) },
	// The benchmark baseline exists only with BENCH_ROUTES=true.
	'bench/bare': { get: all(404) },
	'openapi.yaml': { get: all(200) },
}

function fillPattern(pattern: string, params: Record<string, string>) {
	return `/${pattern}`
		.split('/')
		.map((segment) => {
			if (segment === '*') return params['*'] ?? ''
			if (segment.startsWith(':')) {
				const value = params[segment.slice(1)]
				if (value === undefined) throw new Error(`no value for ${segment} in ${pattern}`)
				return encodeURIComponent(value)
			}
			return segment
		})
		.join('/')
}

// ---------------------------------------------------------------------------

interface Case {
	route: string
	method: 'GET' | 'POST'
	host: HostKind
	role: Role
	effective: Role
	path: string
	form?: Record<string, string>
	multipart?: boolean
	expected: Expectation
	foreign: Foreign
	mustNotContain: string[]
}

/**
 * The matrix on one database: a file per database (isolation.test.ts, isolation.pg.test.ts), so the
 * two run side by side in CI's parallel group rather than one after the other in one file.
 */
export function isolationMatrix(dialect: Dialect) {
	describe.skipIf(!DIALECTS.includes(dialect))(`tenant isolation matrix on ${dialect}`, () => {
		let stack: Stack
		let contentDir: string
		let started = 0
		beforeAll(async () => {
			started = Date.now()
			// The demo content plus a page and a post of Globex, so the other tenant has some of each.
			contentDir = mkdtempSync(join(tmpdir(), 'lms-isolation-cms-'))
			cpSync('cms/content', contentDir, { recursive: true })
			const doc = (slug: string, title: string, extra: Record<string, unknown>) =>
				JSON.stringify({
					slug,
					status: 'published',
					updatedAt: '2026-10-01T09:00:00.000Z',
					title: { en: title },
					body: { en: `# ${title}\n\nGlobex internal handbook text.` },
					...extra,
				})
			mkdirSync(join(contentDir, 'globex/pages'), { recursive: true })
			mkdirSync(join(contentDir, 'globex/blog'), { recursive: true })
			writeFileSync(
				join(contentDir, 'globex/pages/globex-handbook.json'),
				doc('globex-handbook', 'Globex Handbook Page', { listed: true, parent: null, order: 1 }),
			)
			writeFileSync(
				join(contentDir, 'globex/blog/globex-news.json'),
				doc('globex-news', 'Globex Quarterly News', {
					publishedAt: '2026-10-01T09:00:00.000Z',
					author: 'Globex',
					hero: null,
					excerpt: { en: 'News.' },
				}),
			)
			stack = await startStack(dialect, {}, { cmsContentDir: contentDir })
		})
		afterAll(async () => {
			await stack?.close()
			if (contentDir) rmSync(contentDir, { recursive: true, force: true })
		})

		it('covers every route of the route table with expectations', () => {
			const flat = matrixRoutes()
			expect(flat.length).toBeGreaterThan(50)
			// One table: no route is a copy under a locale prefix.
			expect(flat.filter((r) => PREFIXED.test(r.pattern)).map((r) => r.pattern)).toEqual([])
			const missing = flat.filter((r) => !(r.pattern in SPEC)).map((r) => `${r.pattern} (${r.id})`)
			expect(missing, 'routes without an isolation expectation').toEqual([])
			const stale = Object.keys(SPEC).filter((p) => !flat.some((r) => r.pattern === p))
			expect(stale, 'expectations for routes that no longer exist').toEqual([])
			const postWithoutRule = flat.filter((r) => hasAction(r.file) && !SPEC[r.pattern].post).map((r) => r.pattern)
			expect(postWithoutRule, 'routes with an action but no POST expectation').toEqual([])
			const ruleWithoutPost = flat.filter((r) => !hasAction(r.file) && SPEC[r.pattern].post).map((r) => r.pattern)
			expect(ruleWithoutPost, 'POST expectations for routes without an action').toEqual([])
		})

		it(
			'keeps every tenant to itself: no cross-tenant reads or writes, statuses per spec',
			{ timeout: 420_000 },
			async () => {
				const { db } = stack
				const t = db.t
				const cms = createCmsClient({
					apiUrl: stack.cms.url,
					projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
					apiKey: TEST_SECRETS.CMS_API_UUID,
				})
				const passwordHash = await hashPassword(DEMO_PASSWORD)
				const tenants = stack.seeded.tenants
				const u = (key: string) => stack.seeded.users[key]

				let n = 0
				const person = (tenant: Tenant, role: 'student' | 'course_admin' | 'tenant_admin', label: string) =>
					createUser(db, {
						tenant_id: tenant.id,
						email: `iso-${label}-${++n}@${tenant.slug}.test`,
						name: `${label} Person ${n} of ${tenant.name}`,
						role,
						password_hash: passwordHash,
						email_verified_at: new Date(),
					}) as Promise<User>

				/** Records of `tenant` that the matrix substitutes on other tenants' hosts. */
				async function foreignRecords(
					tenant: Tenant,
					data: {
						student: User
						course: string
						entry: string
						page: string
						post: string
						siteAsset: string
						courseAsset: string
						courseAdmin: User
						staff: User[]
					},
				): Promise<Foreign> {
					const scope = { tenantId: tenant.id, userId: data.student.id }
					// A password and an unconfirmed address of their own: an account intent that reached them would show.
					await updateUser(db, data.student.id, {
						password_hash: await hashPassword(FOREIGN_PASSWORD),
						email_verified_at: null,
					})
					await putEnrollment(db, scope, data.course, 'active')
					await markEntryCompleteRow(db, scope, data.course, data.entry, new Date('2026-10-02T10:00:00Z'))
					await recordAttempt(db, scope, data.course, data.entry, 3, {
						score: 50,
						passed: false,
						answers: { q: 'a' },
						feedback: [],
					})
					await writeAudit(db, {
						actorUserId: data.staff[0].id,
						action: 'user.signed_out',
						targetKind: 'user',
						targetId: data.student.id,
						tenantId: tenant.id,
					})
					const fileId = newId()
					await createFileRow(db, scope, { id: fileId, fileName: 'iso.txt', contentType: 'text/plain; charset=utf-8' })
					const handedIn = await inTransaction(db, (tx) =>
						recordSubmissionSteps(tx, scope, data.course, data.entry, {
							text: `iso hand-in of ${tenant.slug}`,
							link: null,
							fileIds: [fileId],
						}),
					)
					if (handedIn.kind !== 'recorded') throw new Error('the matrix hand-in was not recorded')
					// A certificate of the student's (issued whether or not the course's content enables them).
					const course = await cms.course(tenant.slug, data.course, 'en')
					const issued = await issueCertificate(db, {
						tenant,
						userId: data.student.id,
						course: { ...course!, certificate: { enabled: true } },
						origin: `http://localhost:${stack.port}`,
						baseDomain: 'localhost',
						authSecret: TEST_SECRETS.AUTH_SECRET,
					})
					if (!issued) throw new Error('the matrix certificate was not issued')
					const apiKey = await inTransaction(db, (tx) =>
						insertApiKeySteps(tx, {
							tenantId: tenant.id,
							name: 'matrix',
							scope: 'read_write',
							courseSlug: null,
							prefix: 'lmsk_matrix00',
							secretHash: `matrix-${tenant.id}`,
							createdBy: data.staff[0].id,
						}),
					)
					const pool: User[] = []
					for (let i = 0; i < ROLES.length; i++) pool.push(await person(tenant, 'student', 'pool'))
					const invite = await createInvitation(
						{ db },
						{
							tenantId: tenant.id,
							email: `iso-invitee@${tenant.slug}.test`,
							role: 'tenant_admin',
							invitedBy: data.staff[0].id,
						},
					)
					const endpoint = await createEndpoint(
						db,
						{
							tenantId: tenant.id,
							url: `https://hooks-of-${tenant.slug}.example/iso`,
							events: [],
							secretSealed: 'sealed',
							kekId: 'none',
						},
						() => ({
							actorUserId: null,
							action: 'webhook.endpoint_created',
							targetKind: 'webhook_endpoint',
							targetId: null,
							tenantId: tenant.id,
							metadata: {},
						}),
					)
					const webhookEvent = await inTransaction(db, (tx) =>
						webhookEventSteps(tx, tenant.id, 'user.created', { user: { id: data.student.id } }),
					)
					return {
						tenant,
						webhookEndpoint: endpoint!.id,
						webhookEvent,
						studentId: data.student.id,
						courseAdminId: data.courseAdmin.id,
						courseAdminEmail: data.courseAdmin.email,
						course: data.course,
						entry: data.entry,
						submission: handedIn.submission.id,
						page: data.page,
						post: data.post,
						siteAsset: data.siteAsset,
						courseAsset: data.courseAsset,
						file: fileId,
						certificate: issued.certificate.public_id,
						certificateId: issued.certificate.id,
						apiKeyId: apiKey.id,
						calendar: new URL(
							await newCalendarLink(
								{ db, env: { AUTH_SECRET: TEST_SECRETS.AUTH_SECRET }, origin: 'http://matrix.invalid' } as never,
								{ tenantId: tenant.id, userId: data.student.id },
							),
						).pathname
							.split('/')
							.at(-1)!,
						tokens: {
							email_verify: await issueToken(db, data.student.id, 'email_verify'),
							password_reset: await issueToken(db, data.student.id, 'password_reset'),
							magic_link: await issueToken(db, data.student.id, 'magic_link'),
							email_change: await issueToken(db, data.student.id, 'email_change', {
								payload: `iso-new-address@${tenant.slug}.test`,
							}),
							unsubscribe: unsubscribeToken(TEST_SECRETS.AUTH_SECRET, tenant.id, {
								userId: data.student.id,
								kind: 'inactivity',
							}),
						},
						provider: await identityProvider(tenant),
						samlProvider: await samlIdentityProvider(tenant),
						invite: invite.raw,
						inviteId: invite.invitation.id,
						pool: pool.map((p) => p.email),
						privateMarkers: [data.student, data.courseAdmin, ...data.staff, ...pool]
							.flatMap((p) => [p.name])
							.concat([
								data.student.email,
								data.courseAdmin.email,
								...data.staff.map((s) => s.email),
								`iso-invitee@${tenant.slug}.test`,
								`iso-new-address@${tenant.slug}.test`,
								`hooks-of-${tenant.slug}.example`,
							]),
						publicMarkers: [],
					}
				}

				// Globex: the other tenant for Acme's hosts and the apex.
				const globexAuthor = await person(tenants.globex, 'course_admin', 'author')
				await assignCourseAdmin(
					db,
					{ tenantId: tenants.globex.id, userId: globexAuthor.id },
					'globex-onboarding',
					u('globex:admin@globex.test').id,
				)
				const globexF = await foreignRecords(tenants.globex, {
					student: u('globex:learner@globex.test'),
					course: 'globex-onboarding',
					entry: 'welcome-to-globex',
					page: 'globex-handbook',
					post: 'globex-news',
					siteAsset: 'globex-icon',
					courseAsset: 'globex-icon',
					courseAdmin: globexAuthor,
					staff: [u('globex:admin@globex.test')],
				})
				globexF.publicMarkers = [
					'Globex onboarding',
					'Welcome to Globex',
					'Globex Handbook Page',
					'Globex Quarterly News',
					'Globex internal handbook text',
				]
				// Acme: the other tenant on Globex's host.
				const acmeF = await foreignRecords(tenants.acme, {
					student: u('acme:newbie@acme.test'),
					course: 'intro-to-web',
					entry: 'what-is-http',
					page: 'about',
					post: 'welcome',
					siteAsset: 'acme-icon',
					courseAsset: 'http-diagram',
					courseAdmin: u('acme:author@acme.test'),
					staff: [u('acme:admin@acme.test'), u('acme:learner@acme.test')],
				})
				acmeF.publicMarkers = [
					'Introduction to the Web',
					'What is HTTP',
					'About Acme Academy',
					'Welcome to Acme Academy',
				]
				const FOREIGN: Record<HostKind, Foreign> = { own: globexF, custom: globexF, apex: globexF, other: acmeF }

				// Sessions: one sign-in per role and host (the Acme roles' acme.localhost cookie is replayed on the other hosts).
				const signIn = async (host: string, email: string) => (await stack.signIn(email, host)).cookieHeader()
				const unassigned = await person(tenants.acme, 'course_admin', 'unassigned')
				const acmeEmail: Record<Exclude<Role, 'anonymous' | 'super_admin'>, string> = {
					student: 'learner@acme.test',
					course_admin: 'author@acme.test',
					unassigned_course_admin: unassigned.email,
					tenant_admin: 'admin@acme.test',
				}
				const apexCookie = await signIn(HOSTS.apex, 'root@platform.test')
				// The super_admin acting on Globex's host is an account of its own: its admin mutations (60 a
				// minute) and resends are counted apart from the first phase's, so the cases see the rules, not
				// limits spent by the phase before (whether they are depends on how fast the machine is).
				const otherAdmin = await createUser(db, {
					tenant_id: null,
					email: 'iso-other@platform.test',
					name: 'Matrix Other Admin',
					role: 'super_admin',
					password_hash: passwordHash,
					email_verified_at: new Date(),
				})
				const otherApexCookie = await signIn(HOSTS.apex, otherAdmin.email)
				// And on Acme's custom domain another one: Acme's two hosts together post every admin form twice, more
				// than one account's 60 a minute since the announcement form (decision 0047).
				const customAdmin = await createUser(db, {
					tenant_id: null,
					email: 'iso-custom@platform.test',
					name: 'Matrix Custom Admin',
					role: 'super_admin',
					password_hash: passwordHash,
					email_verified_at: new Date(),
				})
				const customApexCookie = await signIn(HOSTS.apex, customAdmin.email)
				async function enter(tenant: Tenant, host: string, apex = apexCookie) {
					const res = await stack.request(HOSTS.apex, '/admin/tenants', {
						method: 'POST',
						body: new URLSearchParams({ intent: 'enter', tenantId: tenant.id }).toString(),
						headers: {
							cookie: apex,
							origin: `http://${HOSTS.apex}:${stack.port}`,
							'content-type': 'application/x-www-form-urlencoded',
						},
					})
					expect(res.status).toBe(302)
					const url = new URL(String(res.headers.location))
					const b = stack.browser(host)
					// The link's page asks; its button signs in (decision 0032).
					expect((await b.get(`${url.pathname}${url.search}`)).status).toBe(200)
					expect((await b.post(`${url.pathname}${url.search}`, {})).headers.location).toBe('/admin')
					return b.cookieHeader()
				}
				const cookies = {} as Record<Role, Record<HostKind, string>>
				cookies.anonymous = { own: '', custom: '', other: '', apex: '' }
				// The tenant_admin on Acme's custom domain is an account of its own, like the super_admin's: the two
				// hosts post every admin form twice, and an erasure naming someone not found counts too (decision 0060).
				const customTenantAdmin = await person(tenants.acme, 'tenant_admin', 'custom-admin')
				for (const [role, email] of Object.entries(acmeEmail) as Array<[Role, string]>) {
					const own = await signIn(HOSTS.own, email)
					const custom = await signIn(HOSTS.custom, role === 'tenant_admin' ? customTenantAdmin.email : email)
					cookies[role] = { own, custom, other: own, apex: own }
				}
				cookies.super_admin = {
					apex: apexCookie,
					own: await enter(tenants.acme, HOSTS.own),
					custom: await enter(tenants.acme, HOSTS.custom, customApexCookie),
					other: await enter(tenants.globex, HOSTS.other, otherApexCookie),
				}

				// The cases, generated from the route table and the rules.
				const flat = matrixRoutes()
				const cases: Case[] = []
				for (const route of flat) {
					const spec = SPEC[route.pattern]
					for (const host of Object.keys(HOSTS) as HostKind[]) {
						const foreign = FOREIGN[host]
						for (const [roleIndex, role] of ROLES.entries()) {
							const effective = effectiveRole(role, host)
							const ctx: Ctx = { role: effective, host, tenantHost: host !== 'apex' }
							const norm = (e: Expectation | number): Expectation => (typeof e === 'number' ? { status: e } : e)
							const params = spec.params?.(foreign, ctx) ?? {}
							const base = { route: route.pattern, host, role, effective, foreign }
							cases.push({
								...base,
								method: 'GET',
								path: fillPattern(route.pattern, params) + (spec.query?.(foreign) ?? ''),
								expected: norm(spec.get(ctx)),
								mustNotContain: spec.getMustNotContain ?? [],
							})
							for (const variant of spec.post?.variants(foreign, { ...ctx, roleIndex }) ?? []) {
								const rule = variant.rule ?? spec.post!.rule
								cases.push({
									...base,
									method: 'POST',
									path: fillPattern(route.pattern, { ...params, ...variant.params }) + (variant.query ?? ''),
									form: variant.form ?? {},
									multipart: variant.multipart,
									expected: norm(rule(ctx)),
									mustNotContain: [],
								})
							}
						}
					}
				}

				// Signing out ends the session on the server: such a case gets a session of its own, so the
				// role's shared one keeps working for the cases after it.
				async function freshCookie(role: Role, host: HostKind) {
					if (role === 'super_admin')
						return host === 'apex'
							? signIn(HOSTS.apex, 'root@platform.test')
							: host === 'other'
								? enter(tenants.globex, HOSTS.other, otherApexCookie)
								: enter(tenants.acme, HOSTS[host])
					return signIn(HOSTS[host], acmeEmail[role as keyof typeof acmeEmail])
				}
				const endsSession = (c: Case) =>
					c.method === 'POST' && c.route === 'learn/sign-out' && c.role !== 'anonymous' && c.effective === c.role

				async function run(c: Case): Promise<TestResponse> {
					const cookie = endsSession(c) ? await freshCookie(c.role, c.host) : cookies[c.role][c.host]
					const headers: Record<string, string> = cookie ? { cookie } : {}
					if (c.method === 'GET') return stack.request(HOSTS[c.host], c.path, { headers })
					const { body, contentType } = c.multipart
						? await multipartBody(c.form ?? {}, [{ name: 'matrix.txt', type: 'text/plain', body: 'Matrix file' }])
						: { body: new URLSearchParams(c.form).toString(), contentType: 'application/x-www-form-urlencoded' }
					return stack.request(HOSTS[c.host], c.path, {
						method: 'POST',
						body,
						headers: { ...headers, origin: `http://${HOSTS[c.host]}:${stack.port}`, 'content-type': contentType },
					})
				}

				const failures: string[] = []
				/**
				 * The addresses the host's tenant has invited (decision 0040): an enroll page invites any
				 * address without an account here, another tenant's people's too, exactly as one nobody has.
				 * Such an address is then this tenant's own record (typed by its admin), not a leak.
				 */
				async function invitedBy(host: HostKind) {
					const tenant = host === 'other' ? tenants.globex : host === 'apex' ? null : tenants.acme
					if (!tenant) return new Set<string>()
					const rows = await db.orm
						.select({ email: t.invitations.email })
						.from(t.invitations)
						.where(eq(t.invitations.tenant_id, tenant.id))
					return new Set(rows.map((r) => r.email))
				}

				function check(c: Case, res: TestResponse, invited: Set<string>) {
					const label = `${c.method} ${HOSTS[c.host]}${c.path}${c.form ? ` ${JSON.stringify(c.form)}` : ''}${c.multipart ? ' (multipart)' : ''} as ${c.role}${c.effective !== c.role ? ' (session of another host)' : ''}`
					const location = String(res.headers.location ?? '')
					if (res.status !== c.expected.status || (c.expected.location && !location.startsWith(c.expected.location))) {
						failures.push(
							`${label}: expected ${c.expected.status}${c.expected.location ? ` → ${c.expected.location}` : ''}, got ${res.status}${location ? ` → ${location}` : ''}`,
						)
					}
					if (res.status >= 500) failures.push(`${label}: server error ${res.status}`)
					const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
					// A session of another host is treated as signed out: cleared, never re-issued. Liveness reads no
					// session at all (it touches nothing outside the process, decision 0035): it clears nothing either.
					if (
						c.effective !== c.role &&
						c.route !== 'api/health/live' &&
						!setCookie.some(
							(line) =>
								/^lms_session=;/.test(line) || /^lms_session=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(line),
						)
					) {
						failures.push(`${label}: the other host's session cookie was not cleared`)
					}
					// No case signs anyone in: a session issued here would be the other tenant's user or a stray one.
					if (
						c.route !== 'api/auth/:provider' &&
						setCookie.some(
							(line) =>
								/^lms_session=[^;]+/.test(line) &&
								!/^lms_session=;/.test(line) &&
								!/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line),
						)
					) {
						failures.push(`${label}: a session cookie was issued`)
					}
					if (c.expected.platform) return
					const sent = `${c.path} ${JSON.stringify(c.form ?? {})}`
					const body = `${res.text}\n${location}`
					for (const marker of [...c.foreign.privateMarkers, ...c.foreign.publicMarkers, ...c.mustNotContain]) {
						if (!sent.includes(marker) && !invited.has(marker) && body.includes(marker))
							failures.push(`${label}: the answer contains "${marker}"`)
					}
				}

				/** Runs cases a few at a time. */
				async function runAll(list: Case[]) {
					let next = 0
					const worker = async () => {
						while (next < list.length) {
							const c = list[next++]
							const res = await run(c)
							check(c, res, await invitedBy(c.host))
						}
					}
					await Promise.all(Array.from({ length: 6 }, worker))
				}

				/** An enabled identity provider of the tenant, claiming its own domain (decision 0069). */
				async function identityProvider(tenant: Tenant) {
					const id = newId()
					await inTransaction(db, (tx) =>
						createIdentityProviderSteps(tx, tenant.id, id, {
							kind: 'oidc',
							label: `iso provider of ${tenant.slug}`,
							issuer: 'http://127.0.0.1:9/iso',
							clientId: 'iso-client',
							clientSecretSealed: sealSecret(
								TEST_SECRETS.SSO_ENCRYPTION_KEY,
								{ tenantId: tenant.id, providerId: id },
								'x',
							),
							scopes: 'openid email',
							enabled: true,
							requireSso: false,
							roleClaim: null,
							roleMap: {},
							domains: [`iso-${tenant.slug}.test`],
						}),
					)
					return id
				}

				async function samlIdentityProvider(tenant: Tenant) {
					const id = newId()
					const idp = newSigningKeyPair('iso SAML IdP')
					await inTransaction(db, (tx) =>
						createIdentityProviderSteps(tx, tenant.id, id, {
							kind: 'saml',
							label: `iso SAML provider of ${tenant.slug}`,
							issuer: 'https://idp.iso.test/metadata',
							clientId: '',
							clientSecretSealed: null,
							scopes: '',
							enabled: true,
							requireSso: false,
							roleClaim: null,
							roleMap: {},
							domains: [`iso-saml-${tenant.slug}.test`],
							saml: { ssoUrl: 'https://idp.iso.test/sso', idpCerts: idp.certificate },
							samlSpKeys: newSpKeys(TEST_SECRETS.SSO_ENCRYPTION_KEY, tenant.id, id, `${tenant.slug}.localhost`),
						}),
					)
					return id
				}

				/** Every row of the tenant, and every row elsewhere that points at it. */
				async function snapshot(tenant: Tenant) {
					const users = await db.orm.select().from(t.users).where(eq(t.users.tenant_id, tenant.id))
					const ids = users.map((x) => x.id)
					const sortById = <R extends { id: string }>(rows: R[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id))
					return {
						tenant: await db.orm.select().from(t.tenants).where(eq(t.tenants.id, tenant.id)),
						api_keys: sortById(await db.orm.select().from(t.api_keys).where(eq(t.api_keys.tenant_id, tenant.id))),
						api_idempotency: sortById(
							await db.orm.select().from(t.api_idempotency).where(eq(t.api_idempotency.tenant_id, tenant.id)),
						),
						users: sortById(users),
						enrollments: sortById(
							await db.orm
								.select()
								.from(t.enrollments)
								.where(or(eq(t.enrollments.tenant_id, tenant.id), inArray(t.enrollments.user_id, ids))),
						),
						entry_progress: sortById(
							await db.orm
								.select()
								.from(t.entry_progress)
								.where(or(eq(t.entry_progress.tenant_id, tenant.id), inArray(t.entry_progress.user_id, ids))),
						),
						quiz_attempts: sortById(
							await db.orm
								.select()
								.from(t.quiz_attempts)
								.where(or(eq(t.quiz_attempts.tenant_id, tenant.id), inArray(t.quiz_attempts.user_id, ids))),
						),
						course_admin_assignments: sortById(
							await db.orm
								.select()
								.from(t.course_admin_assignments)
								.where(
									or(
										eq(t.course_admin_assignments.tenant_id, tenant.id),
										inArray(t.course_admin_assignments.user_id, ids),
									),
								),
						),
						assignment_submissions: sortById(
							await db.orm
								.select()
								.from(t.assignment_submissions)
								.where(
									or(eq(t.assignment_submissions.tenant_id, tenant.id), inArray(t.assignment_submissions.user_id, ids)),
								),
						),
						submission_files: sortById(
							await db.orm
								.select()
								.from(t.submission_files)
								.where(or(eq(t.submission_files.tenant_id, tenant.id), inArray(t.submission_files.user_id, ids))),
						),
						certificates: sortById(
							await db.orm
								.select()
								.from(t.certificates)
								.where(or(eq(t.certificates.tenant_id, tenant.id), inArray(t.certificates.user_id, ids))),
						),
						signing_keys: sortById(
							await db.orm.select().from(t.signing_keys).where(eq(t.signing_keys.tenant_id, tenant.id)),
						),
						invitations: sortById(
							await db.orm.select().from(t.invitations).where(eq(t.invitations.tenant_id, tenant.id)),
						),
						verification_tokens: sortById(
							await db.orm.select().from(t.verification_tokens).where(inArray(t.verification_tokens.user_id, ids)),
						),
						oauth_accounts: sortById(
							await db.orm
								.select()
								.from(t.oauth_accounts)
								.where(or(eq(t.oauth_accounts.tenant_id, tenant.id), inArray(t.oauth_accounts.user_id, ids))),
						),
						identity_providers: sortById(
							await db.orm.select().from(t.identity_providers).where(eq(t.identity_providers.tenant_id, tenant.id)),
						),
						identity_provider_domains: await db.orm
							.select()
							.from(t.identity_provider_domains)
							.where(eq(t.identity_provider_domains.tenant_id, tenant.id))
							.orderBy(t.identity_provider_domains.domain),
						audit_log: sortById(
							await db.orm
								.select()
								.from(t.audit_log)
								.where(or(eq(t.audit_log.tenant_id, tenant.id), inArray(t.audit_log.target_id, [...ids, tenant.id]))),
						),
						// The course results and second chances (decision 0037).
						course_passes: sortById(
							await db.orm
								.select()
								.from(t.course_passes)
								.where(or(eq(t.course_passes.tenant_id, tenant.id), inArray(t.course_passes.user_id, ids))),
						),
						second_chances: sortById(
							await db.orm
								.select()
								.from(t.second_chances)
								.where(or(eq(t.second_chances.tenant_id, tenant.id), inArray(t.second_chances.user_id, ids))),
						),
						// Reminders, opt-outs and announcements (decision 0047).
						reminders_sent: (
							await db.orm
								.select()
								.from(t.reminders_sent)
								.where(or(eq(t.reminders_sent.tenant_id, tenant.id), inArray(t.reminders_sent.user_id, ids)))
						).sort((a, b) => `${a.user_id}/${a.item_key}`.localeCompare(`${b.user_id}/${b.item_key}`)),
						reminder_opt_outs: (
							await db.orm
								.select()
								.from(t.reminder_opt_outs)
								.where(or(eq(t.reminder_opt_outs.tenant_id, tenant.id), inArray(t.reminder_opt_outs.user_id, ids)))
						).sort((a, b) => `${a.user_id}/${a.kind}`.localeCompare(`${b.user_id}/${b.kind}`)),
						announcements: sortById(
							await db.orm.select().from(t.announcements).where(eq(t.announcements.tenant_id, tenant.id)),
						),
						submission_watchers: (
							await db.orm
								.select()
								.from(t.submission_watchers)
								.where(or(eq(t.submission_watchers.tenant_id, tenant.id), inArray(t.submission_watchers.user_id, ids)))
						).sort((a, b) => `${a.user_id}/${a.course_slug}`.localeCompare(`${b.user_id}/${b.course_slug}`)),
					}
				}

				// Thousands of requests: keep the server's structured log lines (mail sent, refused OAuth) out of the output.
				const originalLog = console.log
				console.log = (line: unknown, ...rest: unknown[]) => {
					if (typeof line === 'string' && line.startsWith('{"level"')) return
					originalLog(line, ...rest)
				}
				// Phase 1: Acme's hosts and the apex, against Globex's records. Phase 2: Globex's host against Acme's.
				// Phase 3: the super_admin's platform-wide cases (allowed to read and change the other tenant).
				const platform = cases.filter((c) => c.expected.platform)
				try {
					for (const [hosts, tenant] of [
						[['own', 'custom', 'apex'], tenants.globex],
						[['other'], tenants.acme],
					] as Array<[HostKind[], Tenant]>) {
						// Background work (the jobs of the phase before, mail after answering) settles first: a job
						// of the phase before writes its own tenant's rows, never the other's (decision 0033).
						await stack.settled()
						const before = await snapshot(tenant)
						await runAll(cases.filter((c) => hosts.includes(c.host) && !c.expected.platform))
						await stack.settled()
						expect
							.soft(await snapshot(tenant), `rows of ${tenant.slug} after requests on ${hosts.join(', ')}`)
							.toEqual(before)
					}
					// A super_admin of their own for the platform-wide cases: the phases before spend the first one's
					// admin mutations (60 a minute), and these cases must see the rule, not the limit.
					const platformAdmin = await createUser(db, {
						tenant_id: null,
						email: 'iso-platform@platform.test',
						name: 'Matrix Platform Admin',
						role: 'super_admin',
						password_hash: passwordHash,
						email_verified_at: new Date(),
					})
					cookies.super_admin.apex = await signIn(HOSTS.apex, platformAdmin.email)
					// On Acme's hosts too: the phases before spend the first super_admin's mutations there as well (each
					// admin form's post counts before its 404), and the users list's resend (issue 40) added the ones that
					// left too few.
					cookies.super_admin.own = await enter(tenants.acme, HOSTS.own, cookies.super_admin.apex)
					cookies.super_admin.custom = await enter(tenants.acme, HOSTS.custom, cookies.super_admin.apex)
					await runAll(platform)
				} finally {
					console.log = originalLog
				}

				// Controls: the substituted records are real on their own tenant, and the markers would be seen if they leaked.
				for (const [path, marker] of [
					['/learn/course/globex-onboarding', 'Globex onboarding'],
					['/globex-handbook', 'Globex Handbook Page'],
					['/blog/globex-news', 'Globex Quarterly News'],
					['/api/cms/site/assets/globex-icon', ''],
				]) {
					const res = await stack.request(HOSTS.other, path)
					expect(res.status, path).toBe(200)
					expect(res.text).toContain(marker)
				}
				const control = await stack.request(HOSTS.apex, `/admin/users/${globexF.studentId}`, {
					headers: { cookie: cookies.super_admin.apex },
				})
				expect(control.text).toContain(u('globex:learner@globex.test').email)
				// The control: the link works on its own host (the page asks, its button signs in).
				const own = `/learn/verify/${acmeF.tokens.email_verify}`
				expect((await stack.request(HOSTS.own, own)).text).toContain('Confirm and sign in')
				expect((await stack.browser(HOSTS.own).post(own, {})).status).toBe(302)

				const byMethod = (m: string) => cases.filter((c) => c.method === m).length
				console.log(
					`isolation matrix: ${cases.length} cases (${byMethod('GET')} GET, ${byMethod('POST')} POST, ${platform.length} platform-wide) over ${flat.length} routes on ${dialect} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
				)
				expect(failures, failures.slice(0, 60).join('\n')).toEqual([])
			},
		)

		describe('races', () => {
			const ACME = 'acme.localhost'
			let n = 0
			async function acmeUser(role: 'student' | 'tenant_admin', verified = true) {
				return (await createUser(stack.db, {
					tenant_id: stack.seeded.tenants.acme.id,
					email: `race-${++n}@acme.test`,
					name: `Race Person ${n}`,
					role,
					password_hash: await hashPassword(DEMO_PASSWORD),
					email_verified_at: verified ? new Date() : null,
				}))!
			}
			/** The session cookie of a sign-in, or null when it was refused. */
			async function signIn(email: string) {
				const b = stack.browser(ACME)
				const res = await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })
				return res.status === 302 ? b.cookieHeader() : null
			}
			const get = (path: string, cookie: string) => stack.request(ACME, path, { headers: { cookie } })

			it('uses an emailed link once under 50 parallel confirmations', async () => {
				const user = await acmeUser('student', false)
				const raw = await issueToken(stack.db, user.id, 'email_verify')
				// Its confirm button pressed 50 times at once (opening the link uses nothing: decision 0032).
				const answers = await Promise.all(
					Array.from({ length: 50 }, () => stack.browser(ACME).post(`/learn/verify/${raw}`, {})),
				)
				const signedIn = answers.filter(
					(r) => r.status === 302 && String(r.headers['set-cookie'] ?? '').includes('lms_session='),
				)
				const used = answers.filter((r) => r.status === 200)
				console.log(
					`verification link race on ${dialect}: 50 confirmations, ${signedIn.length} signed in, ${used.length} shown the used-link page`,
				)
				expect(signedIn).toHaveLength(1)
				expect(used).toHaveLength(49)
				const [row] = await stack.db.orm
					.select()
					.from(stack.db.t.verification_tokens)
					.where(eq(stack.db.t.verification_tokens.user_id, user.id))
				expect(row.used_at).not.toBeNull()
			})

			it("ends every stale session when a role change races the user's sign-ins and page requests", async () => {
				const target = await acmeUser('tenant_admin')
				const stale = (await signIn(target.email))!
				expect((await get('/admin', stale)).status).toBe(200)
				// An admin of its own: the matrix before may have spent admin@acme.test's 60 mutations this minute.
				const admin = (await signIn((await acmeUser('tenant_admin')).email))!
				const changeRole = () =>
					stack.request(ACME, `/admin/users/${target.id}`, {
						method: 'POST',
						body: new URLSearchParams({ intent: 'change-role', confirmed: 'yes', role: 'student' }).toString(),
						headers: {
							cookie: admin,
							origin: `http://${ACME}:${stack.port}`,
							'content-type': 'application/x-www-form-urlencoded',
						},
					})
				// Eight sign-ins (the limit is ten per address) and forty page requests of the stale session, started
				// a few milliseconds apart, with the demotion in the middle.
				const signIns: Array<Promise<string | null>> = []
				const pages: Array<Promise<TestResponse>> = []
				let change: Promise<TestResponse> | null = null
				for (let i = 0; i < 48; i++) {
					if (i === 24) change = changeRole()
					if (i % 6 === 3) signIns.push(signIn(target.email))
					else pages.push(get(i % 2 ? '/admin' : '/learn/dashboard', stale))
					await new Promise((r) => setTimeout(r, 4))
				}
				const [changed, minted, served] = await Promise.all([change!, Promise.all(signIns), Promise.all(pages)])
				expect(changed.status).toBe(302)
				expect(changed.headers.location).toBe(`/admin/users/${target.id}?notice=role-changed`)
				const after = (await findUserById(stack.db, target.id))!
				expect(after).toMatchObject({ role: 'student', token_version: target.token_version + 1 })

				// During the race a page was served to the old session (200) or refused as signed out (302 to sign-in): nothing else.
				const before = served.filter((r) => r.status === 200).length
				const refused = served.filter(
					(r) => r.status === 302 && String(r.headers.location).startsWith('/learn/sign-in?callbackUrl='),
				).length
				expect(before + refused).toBe(served.length)
				// Afterwards the session issued before the change is rejected everywhere.
				for (const path of ['/admin', '/learn/dashboard', '/admin/users']) {
					const res = await get(path, stale)
					expect(res.status, path).toBe(302)
					expect(res.headers.location).toMatch(/^\/learn\/sign-in\?callbackUrl=/)
				}
				// A session minted during the race carries either the old version (now rejected) or the new role (a student: 403). Never an admin.
				const outcomes = await Promise.all(
					minted.map(async (cookie) => (cookie ? (await get('/admin', cookie)).status : null)),
				)
				expect(outcomes.every((s) => s === 302 || s === 403)).toBe(true)
				console.log(
					`role-change race on ${dialect}: 1 demotion, ${signIns.length} sign-ins (${outcomes.filter((s) => s === 302).length} stale and now rejected, ${outcomes.filter((s) => s === 403).length} with the new role), ` +
						`${served.length} page requests of the old session (${before} served before the change, ${refused} refused after)`,
				)
			})
		})
	})
}

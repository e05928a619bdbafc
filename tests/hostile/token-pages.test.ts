/**
 * Hostile class: a GET that signs someone in or changes state (issue 36, item 4). A cross-site
 * navigation to `/learn/verify/<attacker's token>?callbackUrl=…` replaced the victim's session
 * with the attacker's account (login CSRF). Every page whose URL carries a token or proof is opened
 * here the ways another site, a mail scanner or a prefetcher can open it (a cross-site navigation,
 * HEAD, React Router's `.data` request, a locale prefix): none may sign in, use the token up or
 * change a row. Only the page's own confirm button (a same-origin POST) may, and a cross-site POST
 * is refused. The verification link keeps its callbackUrl through the confirm step.
 */
import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintConsumedTokenProof } from '#app/accounts/auth.server.ts'
import { issueToken } from '#app/accounts/tokens.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, noPassword, upsertUser, type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { createInvitation } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

/** Whether a page asks with a form that posts back to its own URL (not, say, the footer's locale form). */
function asks(html: string, path: string) {
	return [...html.matchAll(/<form\b[^>]*>/gi)].some(
		([tag]) => /method="post"/i.test(tag) && /action="([^"]*)"/.exec(tag)?.[1].replaceAll('&amp;', '&') === path,
	)
}
const CROSS_SITE = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }
/** What Chromium sends with a form post from a page served with `Referrer-Policy: no-referrer`. */
const OWN_BUTTON = { origin: 'null', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' }

describe.each(DIALECTS)('hostile token pages on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let root: User
	let admin: User
	const hostile = hostileClass('token-pages', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		root = (await findUserByEmail(stack.db, null, 'root@platform.test'))!
		admin = (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	let people = 0
	/** A new account of the attacker's: unverified unless said, with a password. */
	async function person(verified = false) {
		people++
		return upsertUser(stack.db, {
			tenant_id: acme.id,
			email: `token-page-${people}@acme.test`,
			role: 'student',
			name: `Token Page ${people}`,
			password_hash: noPassword(stack.db),
			email_verified_at: verified ? new Date() : null,
		})
	}
	/** The victim: signed in as themselves in their own browser (one sign-in, its cookie in a browser per case). */
	let victimCookie: string | undefined
	async function victim() {
		if (!victimCookie) {
			const first = stack.browser(ACME)
			expect((await first.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(
				302,
			)
			victimCookie = first.jar.get('lms_session')!
		}
		const b = stack.browser(ACME)
		b.jar.set('lms_session', victimCookie)
		return b
	}
	const hash = (raw: string) => createHash('sha256').update(raw).digest('hex')
	const tokenUsed = async (raw: string) => {
		const { verification_tokens: t } = stack.db.t
		const [row] = await stack.db.orm
			.select()
			.from(t)
			.where(eq(t.token_hash, hash(raw)))
		return Boolean(row?.used_at)
	}
	const invitationAccepted = async (raw: string) => {
		const { invitations: i } = stack.db.t
		const [row] = await stack.db.orm
			.select()
			.from(i)
			.where(eq(i.token_hash, hash(raw)))
		return Boolean(row?.accepted_at)
	}
	const sessionCount = async () => (await stack.db.orm.select().from(stack.db.t.sessions)).length

	/** Every token page: a fresh link, what counts as its state having changed, and the body its button posts. */
	const PAGES: {
		kind: string
		fresh: () => Promise<{ path: string; changed: () => Promise<boolean> }>
		form?: Record<string, string>
		signedInAs?: () => Promise<Browser>
	}[] = [
		{
			kind: 'verification link',
			fresh: async () => {
				const raw = await issueToken(stack.db, (await person()).id, 'email_verify')
				return {
					path: `/learn/verify/${raw}?callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web`,
					changed: () => tokenUsed(raw),
				}
			},
		},
		{
			kind: 'magic link',
			fresh: async () => {
				const raw = await issueToken(stack.db, (await person(true)).id, 'magic_link')
				return { path: `/learn/magic/${raw}`, changed: () => tokenUsed(raw) }
			},
		},
		{
			kind: 'reset link',
			form: { password: 'attackers-choice-2026', confirm: 'attackers-choice-2026' },
			fresh: async () => {
				const raw = await issueToken(stack.db, (await person(true)).id, 'password_reset')
				return { path: `/learn/reset/${raw}`, changed: () => tokenUsed(raw) }
			},
		},
		{
			kind: 'invitation',
			form: { name: 'Ivy Invitee', password: 'attackers-choice-2026' },
			fresh: async () => {
				people++
				const { raw } = await createInvitation(stack, {
					tenantId: acme.id,
					email: `token-page-invitee-${people}@acme.test`,
					role: 'student',
					invitedBy: admin.id,
				})
				return { path: `/invite/${raw}`, changed: () => invitationAccepted(raw) }
			},
		},
		{
			kind: 'email-change link',
			// Only its owner, signed in, can confirm it: here the owner's own browser is sent to it by another site.
			fresh: async () => {
				const owner = await person(true)
				const raw = await issueToken(stack.db, owner.id, 'email_change', { payload: `moved-${owner.email}` })
				return { path: `/learn/account/email/${raw}`, changed: () => tokenUsed(raw) }
			},
		},
		{
			kind: 'tenant-override link',
			fresh: async () => {
				const proof = mintConsumedTokenProof(stack, root, `enter-${acme.id}`)
				const before = await sessionCount()
				return {
					path: `/admin/enter?user=${root.id}&proof=${encodeURIComponent(proof)}`,
					changed: async () => (await sessionCount()) > before,
				}
			},
		},
	]

	it('signs nobody in and changes nothing when a token page is opened by another site, a scanner or a prefetch', async () => {
		for (const page of PAGES) {
			const ways: [string, (b: Browser, path: string) => Promise<unknown>][] = [
				['a cross-site navigation', (b, path) => b.get(path, CROSS_SITE)],
				['a same-site GET', (b, path) => b.get(path)],
				['HEAD', (b, path) => stack.request(ACME, path, { method: 'HEAD', headers: { cookie: b.cookieHeader() } })],
				[
					"React Router's data request",
					(b, path) => {
						const [p, q] = path.split('?')
						return b.get(`${p}.data${q ? `?${q}` : ''}`, CROSS_SITE)
					},
				],
				['under a locale prefix', (b, path) => b.get(`/es${path}`, CROSS_SITE)],
				[
					'a cross-site POST',
					(b, path) => b.post(path, page.form ?? {}, { origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' }),
				],
			]
			for (const [way, open] of ways) {
				const { path, changed } = await page.fresh()
				const b = await victim()
				const before = b.jar.get('lms_session')
				await open(b, path)
				const after = b.jar.get('lms_session')
				hostile.check(
					`${page.kind}, ${way}: the victim stays who they were`,
					after === before,
					after ? 'a new session cookie' : 'signed out',
				)
				hostile.check(`${page.kind}, ${way}: nothing used up or written`, !(await changed()))
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 180_000)

	it("asks on GET, and does it on the page's own same-origin POST", async () => {
		for (const page of PAGES) {
			// Its confirmation needs the owner signed in: below.
			if (page.kind === 'email-change link') continue
			const { path, changed } = await page.fresh()
			const b = stack.browser(ACME)
			const opened = await b.get(path)
			hostile.check(
				`${page.kind}: the page asks with a form that posts`,
				opened.status === 200 && asks(opened.text, path) && !b.jar.has('lms_session'),
				`${opened.status}`,
			)
			const posted = await b.post(path, page.form ?? {}, OWN_BUTTON)
			hostile.check(
				`${page.kind}: the button signs in`,
				posted.status === 302 && b.jar.has('lms_session') && (await changed()),
				`${posted.status}`,
			)
			if (page.kind === 'verification link')
				hostile.check(
					'verification link: the callbackUrl is kept through the confirm step',
					new URL(String(posted.headers.location), 'http://x').pathname === '/learn/course/intro-to-web',
					String(posted.headers.location),
				)
		}
		// The email-change link, confirmed by its owner.
		const owner = await person(true)
		const raw = await issueToken(stack.db, owner.id, 'magic_link')
		const b = stack.browser(ACME)
		expect((await b.post(`/learn/magic/${raw}`, {}, OWN_BUTTON)).status).toBe(302)
		const change = await issueToken(stack.db, owner.id, 'email_change', { payload: `moved-${owner.email}` })
		const asked = await b.get(`/learn/account/email/${change}`)
		hostile.check(
			'email-change link: the page asks with a form that posts',
			asked.status === 200 && asks(asked.text, `/learn/account/email/${change}`) && !(await tokenUsed(change)),
			`${asked.status}`,
		)
		const confirmed = await b.post(`/learn/account/email/${change}`, {}, OWN_BUTTON)
		hostile.check(
			'email-change link: the button changes the address',
			confirmed.status === 302 && (await tokenUsed(change)),
			`${confirmed.status}`,
		)
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('changes nothing on a GET of a page whose form signs out or changes a preference', async () => {
		const b = await victim()
		const cookie = b.jar.get('lms_session')
		for (const path of ['/learn/sign-out', '/api/auth/signout', '/learn/locale?locale=es&redirectTo=/']) {
			await b.get(path, CROSS_SITE)
			const still = await stack.request(ACME, '/learn/account', { headers: { cookie: `lms_session=${cookie}` } })
			hostile.check(`GET ${path}: still signed in`, still.status === 200, `${still.status}`)
		}
		const learner = (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!
		hostile.check('GET /learn/locale: the language is unchanged', learner.locale === 'en', learner.locale)
		expect(hostile.newFailures()).toEqual([])
	})
})

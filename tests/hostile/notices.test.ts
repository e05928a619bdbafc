/**
 * Hostile class: notices that print text from the URL (issue 36, item 5).
 * `/admin/users/invitations?notice=invitation-revoked&email=…` rendered the `email` parameter
 * inside the sentence: escaped, so no script, but a phishing line on our own page. Every page that
 * shows a notice is opened with every notice value and free text in every placeholder a notice
 * sentence has (and a few it has not); the text must never appear. The redirects that carry a
 * notice carry only its key and ids, never an address; the sentence names what the app looks up
 * by the id in this tenant (an invitation), and nothing for another tenant's id or a made-up one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NOTICES } from '#app/platform/notices.ts'
import { findUserByEmail } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { createInvitation } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const APEX = 'localhost'
const PHISH = 'Call-0800-PHISH-now'
/** Every placeholder of a notice sentence in any locale, and names a page might pass on. */
const PLACEHOLDERS = [
	'email',
	'name',
	'course',
	'entry',
	'learner',
	'number',
	'score',
	'max',
	'role',
	'title',
	'count',
	'site',
	'id',
	'invitation',
	'user',
]
/** The text of the page's message boxes (`<Notice>`). */
const noticesOf = (html: string) =>
	[...html.matchAll(/<div class="notice notice-[a-z]+"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => m[1]).join(' | ')
// Markup, spaces and a dash, percent-encoded as a link would carry them.
const VALUES = [encodeURIComponent(`<b>${PHISH}</b> – visit evil.test`)]

describe.each(DIALECTS)('hostile notices on %s', (dialect) => {
	let stack: Stack
	const hostile = hostileClass('notices', dialect)
	const browsers = new Map<string, Browser>()
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	async function as(email: string | null, host = ACME) {
		const key = `${email}@${host}`
		let b = browsers.get(key)
		if (!b) {
			b = stack.browser(host)
			if (email) expect((await b.post('/learn/sign-in', { email, password: DEMO_PASSWORD })).status).toBe(302)
			browsers.set(key, b)
		}
		return b
	}

	it('never shows text from the URL in a notice, on any page that shows one', async () => {
		const acme = stack.seeded.tenants.acme
		const learner = (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!
		// Every page that shows a notice, as the person who sees it.
		const pages: [string | null, string, string][] = [
			[null, ACME, '/'],
			[null, ACME, '/learn/sign-in'],
			[null, ACME, '/learn/sign-up'],
			[null, ACME, '/learn/forgot'],
			[null, ACME, '/learn/magic'],
			['learner@acme.test', ACME, '/learn/account'],
			['learner@acme.test', ACME, '/learn/dashboard'],
			['learner@acme.test', ACME, '/learn/course/intro-to-web'],
			['learner@acme.test', ACME, '/learn/course/intro-to-web/entry/what-is-http'],
			['admin@acme.test', ACME, `/admin/users/${learner.id}`],
			['admin@acme.test', ACME, '/admin/users/invite'],
			['admin@acme.test', ACME, '/admin/users/invitations'],
			['admin@acme.test', ACME, '/admin/courses/intro-to-web/admins'],
			['admin@acme.test', ACME, '/admin/courses/intro-to-web/settings'],
			['admin@acme.test', ACME, '/admin/courses/intro-to-web/submissions'],
			['admin@acme.test', ACME, `/admin/courses/intro-to-web/learners/${learner.id}`],
			['root@platform.test', APEX, '/admin/tenants'],
		]
		const params = [...new Set(Object.values(NOTICES).map((n) => n.param))]
		for (const [email, host, path] of pages) {
			const b = await as(email, host)
			for (const param of params) {
				for (const value of VALUES) {
					const query = new URLSearchParams({ notice: param })
					const extra = PLACEHOLDERS.map((p) => `${p}=${value}`).join('&')
					const res = await b.get(`${path}?${query}&${extra}`)
					// Only the message boxes: the page's own links (hreflang, the locale switcher) carry its URL as data.
					const notices = noticesOf(res.text)
					hostile.check(
						`${path} ?notice=${param} with ${value.slice(0, 24)}`,
						res.status < 500 && !notices.includes('PHISH'),
						`${res.status}: ${notices.slice(0, 120)}`,
					)
				}
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 300_000)

	it('carries only a key and ids in the redirect, and names what it looks up in this tenant', async () => {
		const acme = stack.seeded.tenants.acme
		const globex = stack.seeded.tenants.globex
		const admin = await as('admin@acme.test')
		const adminUser = (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!
		const globexAdmin = (await findUserByEmail(stack.db, globex.id, 'admin@globex.test'))!

		// Sent (to a new address and to a member), resent, revoked: each redirect, then the page it lands on.
		const outcomes: {
			label: string
			email: string
			post: () => Promise<{ status: number; headers: Record<string, unknown> }>
		}[] = []
		outcomes.push({
			label: 'invitation sent',
			email: 'notice-new@acme.test',
			post: () => admin.post('/admin/users/invite', { email: 'notice-new@acme.test', role: 'student' }),
		})
		outcomes.push({
			label: 'invitation sent to a member',
			email: 'newbie@acme.test',
			post: () => admin.post('/admin/users/invite', { email: 'newbie@acme.test', role: 'tenant_admin' }),
		})
		const { invitation: resend } = await createInvitation(stack, {
			tenantId: acme.id,
			email: 'notice-resent@acme.test',
			role: 'student',
			invitedBy: adminUser.id,
		})
		outcomes.push({
			label: 'invitation resent',
			email: 'notice-resent@acme.test',
			post: () => admin.post('/admin/users/invitations', { intent: 'resend', id: resend.id }),
		})
		const { invitation: revoke } = await createInvitation(stack, {
			tenantId: acme.id,
			email: 'notice-revoked@acme.test',
			role: 'student',
			invitedBy: adminUser.id,
		})
		outcomes.push({
			label: 'invitation revoked',
			email: 'notice-revoked@acme.test',
			post: () => admin.post('/admin/users/invitations', { intent: 'revoke', id: revoke.id, confirmed: 'yes' }),
		})
		const landings: string[] = []
		for (const o of outcomes) {
			const res = await o.post()
			const location = String(res.headers.location ?? '')
			hostile.check(`${o.label}: redirected`, res.status === 302, `${res.status}`)
			hostile.check(
				`${o.label}: no address in the redirect`,
				!location.includes('@') && !location.includes('%40'),
				location,
			)
			const page = await admin.get(location)
			hostile.check(
				`${o.label}: the notice names the invitation's address`,
				noticesOf(page.text).includes(o.email),
				`${page.status}: ${noticesOf(page.text)}`,
			)
			landings.push(location)
		}

		// Another tenant's invitation, and made-up ids, in the same notices: nothing named.
		const { invitation: theirs } = await createInvitation(stack, {
			tenantId: globex.id,
			email: 'their-secret@globex.test',
			role: 'student',
			invitedBy: globexAdmin.id,
		})
		for (const landing of landings) {
			const url = new URL(landing, 'http://x')
			for (const [name, value] of [...url.searchParams]) {
				if (name === 'notice') continue
				for (const other of [theirs.id, theirs.id.toUpperCase(), `${resend.id}.x`, 'their-secret@globex.test']) {
					const spoofed = new URLSearchParams(url.searchParams)
					spoofed.set(name, other)
					const page = await admin.get(`${url.pathname}?${spoofed}`)
					const notices = noticesOf(page.text)
					hostile.check(
						`${url.searchParams.get('notice')} with ${name}=${other.slice(0, 40)}`,
						page.status < 500 && !notices.includes('their-secret') && !notices.includes('@'),
						`${page.status}: ${notices}`,
					)
				}
				void value
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)
})

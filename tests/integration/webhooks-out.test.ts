import { and, eq } from 'drizzle-orm'
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { liveCertificate } from '#db/certificates.ts'
import { markEntryCompleteRow } from '#db/learning.ts'
import { WEBHOOK_EVENT_TYPES } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, type User } from '#db/users.ts'
import { createUser } from '#tests/support/repository.ts'
import { listEndpoints, type WebhookEndpoint } from '#db/webhooks.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { passAssignment } from '#tests/support/results.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { answers, startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const PAGE = '/admin/settings/webhooks'
const entryPath = (slug: string) => `/learn/course/${COURSE}/entry/${slug}`
const RIGHT = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
const ROWS_BEFORE_QUIZ = ['html-forms', 'progressive-enhancement', 'build-a-form']

/** A form post with repeated fields (the events' checkboxes), as a browser sends it. */
const pairs = (list: string[][]) => list as unknown as Record<string, string>

/** Adds an endpoint through the admin page; answers the secret the page shows once. */
export async function addEndpoint(admin: Browser, url: string, events: readonly string[]) {
	const res = await admin.post(PAGE, pairs([['intent', 'add'], ['url', url], ...events.map((e) => ['events', e])]))
	expect(res.status).toBe(200)
	const secret = load(res.text)('code.webhook-secret').text()
	expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
	return secret
}

describe.each(DIALECTS)('outgoing webhooks on %s', (dialect) => {
	let stack: Stack
	let receiver: WebhookReceiver
	let acme: Tenant
	let admin: Browser
	let passwordHash: string
	beforeAll(async () => {
		receiver = await startWebhookReceiver()
		stack = await startStack(dialect, {
			WEBHOOK_ALLOW_LOOPBACK: 'true',
			WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1,1,1,1,1',
			WEBHOOK_DISABLE_AFTER_SECONDS: '3',
		})
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
		admin = await stack.signIn('admin@acme.test')
		receiver.state.secrets = [await addEndpoint(admin, receiver.url(), WEBHOOK_EVENT_TYPES)]
	})
	afterAll(async () => {
		await stack?.close()
		await receiver?.close()
	})

	let n = 0
	async function newLearner(): Promise<User> {
		n += 1
		return createUser(stack.db, {
			tenant_id: acme.id,
			email: `hook-${n}@acme.test`,
			name: `Hook Learner ${n}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	}
	const about = (userId: string) => (d: { data: Record<string, unknown> }) => JSON.stringify(d.data).includes(userId)

	it('delivers each event type from the action that causes it, signed and verified', async () => {
		// user.created: the sign-up form.
		const signUp = { name: 'Signed Up', email: 'signup-hook@acme.test', password: 'another-long-secret' }
		expect((await stack.browser(ACME).post('/learn/sign-up', signUp)).status).toBeLessThan(400)
		const signedUp = await findUserByEmail(stack.db, acme.id, 'signup-hook@acme.test')
		expect(signedUp).toBeDefined()

		const learner = await newLearner()
		const b = await stack.signIn(learner.email)
		// enrollment.created: the enroll button; entry.completed: an entry's "mark complete".
		expect((await b.post(`/learn/course/${COURSE}/enroll`, {})).status).toBe(302)
		expect((await b.post(entryPath('what-is-http'), { intent: 'complete' })).status).toBe(302)
		const scope = { tenantId: acme.id, userId: learner.id }
		for (const slug of ROWS_BEFORE_QUIZ) await markEntryCompleteRow(stack.db, scope, COURSE, slug)
		// submission.graded: the grading write of the submissions page.
		await passAssignment(stack.db, scope, COURSE, 'build-a-form')
		// entry.completed, course.completed, course.passed, certificate.issued: the quiz's passing attempt.
		expect((await b.post(entryPath('basics-quiz'), RIGHT)).status).toBe(302)
		const certificate = await liveCertificate(stack.db, acme.id, learner.id, COURSE)
		expect(certificate).toBeDefined()
		// certificate.revoked, enrollment.removed, user.deactivated: the admin pages.
		const revoke = { intent: 'revoke', id: certificate!.id, reason: 'a test', confirmed: 'yes' }
		expect((await admin.post(`/admin/courses/${COURSE}/certificates`, revoke)).status).toBe(302)
		const cancel = { intent: 'cancel-enrollment', courseSlug: COURSE, confirmed: 'yes' }
		expect((await admin.post(`/admin/users/${learner.id}`, cancel)).status).toBe(302)
		expect((await admin.post(`/admin/users/${learner.id}`, { intent: 'deactivate', confirmed: 'yes' })).status).toBe(
			302,
		)

		const mine = about(learner.id)
		const got = await receiver.waitFor((list) => {
			const types = new Set(list.filter(mine).map((d) => d.type))
			return WEBHOOK_EVENT_TYPES.every((t) => types.has(t))
		})
		const learnerEvents = got.filter(mine)
		// The owed-certificate job written with the pass runs after the admin's revocation: it must not issue
		// the certificate again (it did: a second certificate.issued). Watched while the queue works it off.
		const c = stack.db.t.certificates
		for (let i = 0; i < 12; i++) {
			const rows = await stack.db.orm
				.select({ id: c.id })
				.from(c)
				.where(and(eq(c.tenant_id, acme.id), eq(c.user_id, learner.id), eq(c.course_slug, COURSE)))
			expect(rows.map((r) => r.id)).toEqual([certificate!.id])
			await new Promise((r) => setTimeout(r, 250))
		}
		for (const d of learnerEvents) {
			expect(d.verifiedBy, d.type).toEqual([0])
			expect(d.id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
			expect(Math.abs(d.timestamp * 1000 - Date.now())).toBeLessThan(60_000)
			// Nothing secret travels: no password hash, no token, no other person's address.
			expect(d.body).not.toMatch(/password|token|\$argon2|\$2[aby]\$/i)
			expect(d.body).not.toContain('admin@acme.test')
		}
		const byType = (t: string) => learnerEvents.filter((d) => d.type === t).map((d) => d.data)
		expect(byType('entry.completed').map((d) => d.entrySlug)).toEqual(
			expect.arrayContaining(['what-is-http', 'basics-quiz']),
		)
		expect(byType('course.passed')[0]).toMatchObject({ userId: learner.id, courseSlug: COURSE })
		expect(byType('certificate.issued')[0]).toMatchObject({ certificate: { id: certificate!.id, userId: learner.id } })
		expect(byType('certificate.revoked')[0]).toMatchObject({ certificate: { id: certificate!.id }, reason: 'a test' })
		expect(byType('submission.graded')[0]).toMatchObject({
			submission: { userId: learner.id, status: 'graded', passed: true },
		})
		expect(byType('user.created')[0]).toMatchObject({ user: { id: learner.id, email: learner.email, role: 'student' } })
		expect(byType('user.deactivated')[0]).toMatchObject({ user: { id: learner.id } })
		expect(byType('enrollment.removed')[0]).toMatchObject({ enrollment: { userId: learner.id, status: 'cancelled' } })
		// The sign-up's own event.
		await receiver.waitFor((list) => list.some((d) => d.type === 'user.created' && about(signedUp!.id)(d)))
		await stack.settled()
	})

	it('signs with both secrets during a rotation, and only the new one for a new endpoint', async () => {
		const [endpoint] = await listEndpoints(stack.db, acme.id)
		const res = await admin.post(PAGE, { intent: 'rotate', endpointId: endpoint.id })
		expect(res.status).toBe(200)
		const fresh = load(res.text)('code.webhook-secret').text()
		expect(fresh).toMatch(/^whsec_/)
		expect(fresh).not.toBe(receiver.state.secrets[0])
		// The page never shows a secret again.
		expect((await admin.get(PAGE)).text).not.toContain(fresh)
		receiver.state.secrets = [receiver.state.secrets[0], fresh]
		const learner = await newLearner()
		const [d] = await receiver.waitFor((list) => list.some(about(learner.id))).then((l) => l.filter(about(learner.id)))
		expect(d.verifiedBy).toEqual([0, 1])
		expect(d.signature.split(' ')).toHaveLength(2)
		receiver.state.secrets = [fresh]
		await stack.settled()
		// Audited, never with a secret.
		const audit = await stack.db.orm.select().from(stack.db.t.audit_log)
		const actions = audit.filter((r) => r.tenant_id === acme.id).map((r) => r.action)
		expect(actions).toEqual(expect.arrayContaining(['webhook.endpoint_created', 'webhook.secret_rotated']))
		expect(JSON.stringify(audit)).not.toContain('whsec_')
	})

	it('retries a failing endpoint with backoff, disables it after the configured time and mails the admins', async () => {
		const failing = await startWebhookReceiver()
		failing.state.answer = answers.fail
		try {
			failing.state.secrets = [await addEndpoint(admin, failing.url(), ['user.created'])]
			const endpoint = (await listEndpoints(stack.db, acme.id)).find((e) => e.url === failing.url()) as WebhookEndpoint
			const learner = await newLearner()
			const deadline = Date.now() + 30_000
			let disabled: WebhookEndpoint | undefined
			while (Date.now() < deadline) {
				disabled = (await listEndpoints(stack.db, acme.id)).find((e) => e.id === endpoint.id && e.disabled_at)
				if (disabled) break
				await new Promise((r) => setTimeout(r, 100))
			}
			expect(disabled?.disabled_reason).toBe('failing')
			const tries = failing.deliveries.filter(about(learner.id))
			expect(tries.length).toBeGreaterThanOrEqual(3)
			// The same message each time (one webhook-id), every one verified, spaced by the schedule.
			expect(new Set(tries.map((d) => d.id)).size).toBe(1)
			expect(tries.every((d) => d.verifiedBy.length === 1)).toBe(true)
			for (let i = 1; i < tries.length; i++) expect(tries[i].at - tries[i - 1].at).toBeGreaterThanOrEqual(900)
			const mail = await stack.mail.waitFor('admin@acme.test')
			expect(mail.subject).toContain('A webhook endpoint was disabled')
			expect(mail.text).toContain(failing.url())
			// Disabled: a new event is not sent to it.
			const before = failing.deliveries.length
			const other = await newLearner()
			await receiver.waitFor((list) => list.some(about(other.id)))
			await stack.settled()
			expect(failing.deliveries.length).toBe(before)
			// The page shows the last attempts with status and response time.
			const page = load((await admin.get(PAGE)).text)
			const rows = page(`[data-endpoint="${endpoint.id}"] tbody tr`)
			expect(rows.length).toBeGreaterThanOrEqual(3)
			expect(rows.first().text()).toContain('500')
			expect(rows.first().text()).toMatch(/\d+ ms/)
		} finally {
			await failing.close()
		}
	})

	it('replays one delivery with the same webhook-id; the receiver keeps one effect', async () => {
		const [endpoint] = await listEndpoints(stack.db, acme.id)
		const learner = await newLearner()
		const [first] = await receiver.waitFor((l) => l.some(about(learner.id))).then((l) => l.filter(about(learner.id)))
		await stack.settled()
		const res = await admin.post(PAGE, { intent: 'replay', endpointId: endpoint.id, eventId: first.id })
		expect(res.status).toBe(302)
		await stack.settled()
		const copies = receiver.deliveries.filter((d) => d.id === first.id)
		expect(copies).toHaveLength(2)
		expect(copies[1].body).toBe(copies[0].body)
		expect([...receiver.effects.values()].filter((d) => d.id === first.id)).toHaveLength(1)
	})

	it('refuses a private or non-http URL beside its field, and another tenant’s endpoint is not found', async () => {
		for (const url of [
			'http://10.0.0.1/x',
			'http://169.254.169.254/latest',
			'ftp://example.com/',
			'http://[::ffff:10.0.0.1]/',
		]) {
			const res = await admin.post(
				PAGE,
				pairs([
					['intent', 'add'],
					['url', url],
					['events', 'user.created'],
				]),
			)
			expect(res.status, url).toBe(400)
			expect(load(res.text)('.field-error').text()).toContain('Enter an https URL on a public address.')
		}
		const none = await admin.post(
			PAGE,
			pairs([
				['intent', 'add'],
				['url', receiver.url()],
			]),
		)
		expect(none.status).toBe(400)
		expect(load(none.text)('.field-error').text()).toContain('Choose at least one event.')
		const [endpoint] = await listEndpoints(stack.db, acme.id)
		const globex = await stack.signIn('admin@globex.test', 'globex.localhost')
		for (const intent of ['rotate', 'disable', 'enable'])
			expect((await globex.post(PAGE, { intent, endpointId: endpoint.id })).status, intent).toBe(404)
		expect((await globex.get(PAGE)).text).not.toContain(receiver.url())
		const learner = await stack.signIn('learner@acme.test')
		expect((await learner.get(PAGE)).status).toBe(403)
	})
})

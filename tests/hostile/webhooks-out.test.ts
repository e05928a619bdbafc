import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkTarget } from '#app/integrations/webhook-address.server.ts'
import { deliverWebhook, type WebhookEnv } from '#app/integrations/webhook-delivery.server.ts'
import { sendWebhook } from '#app/integrations/webhook-send.server.ts'
import { newWebhookSecret, sealSecret, webhookKek } from '#app/integrations/webhook-secrets.server.ts'
import { seedDemoData } from '#db/seed.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import { createEndpoint, findEndpoint, lastDeliveries, webhookEventSteps } from '#db/webhooks.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { answers, startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

/*
 * Hostile webhook endpoints by class (decision 0072): each delivery is refused or contained. The
 * endpoint rows are written directly (as if saved before a DNS change, or by an older version that
 * checked less), so that the check at delivery time is what is tested; the page's own refusal of
 * address literals is tested in tests/integration/webhooks-out.test.ts.
 */

const ENV: WebhookEnv = {
	AUTH_SECRET: TEST_SECRETS.AUTH_SECRET,
	NODE_ENV: 'test',
	WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,0',
	WEBHOOK_DISABLE_AFTER_SECONDS: 86_400,
	WEBHOOK_TIMEOUT_MS: 700,
	WEBHOOK_ALLOW_LOOPBACK: 'false',
	JOB_TIMEOUT_SECONDS: 60,
}
const LOOPBACK_ALLOWED: WebhookEnv = { ...ENV, WEBHOOK_ALLOW_LOOPBACK: 'true' }

describe.each(DIALECTS)('hostile webhook endpoints on %s', (dialect) => {
	let db: TestDatabase
	let acme: Tenant
	let receiver: WebhookReceiver
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		acme = (await seedDemoData(db, DEMO_PASSWORD)).tenants.acme
		receiver = await startWebhookReceiver()
	})
	afterAll(async () => {
		await receiver?.close()
		await db?.drop()
	})

	/** An endpoint at `url` and one event for it; answers the first attempt's job. */
	async function endpointAt(url: string) {
		const secret = newWebhookSecret()
		const kek = webhookKek(ENV.AUTH_SECRET)
		const endpoint = await createEndpoint(
			db,
			{
				tenantId: acme.id,
				url,
				events: ['user.created'],
				secretSealed: sealSecret(kek, acme.id, secret),
				kekId: kek.id,
			},
			() => ({
				actorUserId: null,
				action: 'webhook.endpoint_created',
				targetKind: 'webhook_endpoint',
				targetId: null,
				tenantId: acme.id,
				metadata: {},
			}),
		)
		const eventId = await inTransaction(db, (tx) =>
			webhookEventSteps(tx, acme.id, 'user.created', { user: { id: 'u1' } }),
		)
		return { endpoint: endpoint!, secret, job: { eventId, endpointId: endpoint!.id, attempt: 1 } }
	}
	const run = (env: WebhookEnv, job: { eventId: string; endpointId: string; attempt: number }) =>
		deliverWebhook({ db, env }, job, function* () {})
	const attempts = async (endpointId: string) => lastDeliveries(db, acme.id, endpointId, 50)

	it.each([
		['loopback', `http://127.0.0.1:PORT/hook`, /loopback/],
		['private 10/8', 'http://10.0.0.1/hook', /private/],
		['metadata service', 'http://169.254.169.254/latest/meta-data/', /private/],
		['IPv6 loopback', 'http://[::1]:PORT/hook', /loopback/],
		['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:PORT/hook', /loopback/],
		['decimal IPv4', 'http://2130706433:PORT/hook', /loopback/],
		['octal IPv4', 'http://0177.0.0.1:PORT/hook', /loopback/],
		['hexadecimal IPv4', 'http://0x7f000001:PORT/hook', /loopback/],
		['a name resolving to loopback', 'http://localhost:PORT/hook', /loopback/],
		['CGNAT', 'http://100.64.1.1/hook', /private/],
		['IPv6 link-local', 'http://[fe80::1]/hook', /private/],
	])('refuses %s at delivery time, connecting nowhere', async (_, raw, why) => {
		const before = receiver.deliveries.length
		const { endpoint, job } = await endpointAt(raw.replace('PORT', String(receiver.port)))
		const note = await run(ENV, job)
		expect(note).toMatch(/failed/)
		const [attempt] = await attempts(endpoint.id)
		expect(attempt.statusCode).toBeNull()
		expect(attempt.error).toMatch(/^refused: /)
		expect(attempt.error).toMatch(why)
		expect(receiver.deliveries.length).toBe(before)
	})

	it('refuses plain http in production', async () => {
		const { endpoint, job } = await endpointAt('http://hooks.example.com/x')
		await run({ ...ENV, NODE_ENV: 'production' }, job)
		const [attempt] = await attempts(endpoint.id)
		expect(attempt.error).toBe('refused: not https')
	})

	it('does not follow a redirect, to a private address or anywhere', async () => {
		const target = await startWebhookReceiver()
		try {
			for (const location of ['http://169.254.169.254/latest/meta-data/', target.url('/second')]) {
				receiver.state.answer = answers.redirect(location)
				const { endpoint, job } = await endpointAt(receiver.url())
				await run(LOOPBACK_ALLOWED, job)
				const [attempt] = await attempts(endpoint.id)
				expect(attempt.statusCode).toBe(307)
				expect(attempt.error).toBe('redirect not followed')
			}
			expect(target.deliveries).toHaveLength(0)
		} finally {
			receiver.state.answer = answers.ok
			await target.close()
		}
	})

	it('cuts a hanging endpoint at the timeout', async () => {
		receiver.state.answer = answers.hang
		try {
			const { endpoint, job } = await endpointAt(receiver.url())
			const started = Date.now()
			await run(LOOPBACK_ALLOWED, job)
			expect(Date.now() - started).toBeLessThan(3000)
			const [attempt] = await attempts(endpoint.id)
			expect(attempt.error).toBe('timed out after 700 ms')
		} finally {
			receiver.state.answer = answers.ok
		}
	})

	it('cuts an endpoint that sends its answer slowly, byte by byte', async () => {
		const slow = http.createServer((req, res) => {
			req.resume()
			res.writeHead(200)
			const timer = setInterval(() => res.write('.'), 100)
			res.on('close', () => clearInterval(timer))
		})
		await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r))
		try {
			const { endpoint, job } = await endpointAt(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/`)
			await run(LOOPBACK_ALLOWED, job)
			const [attempt] = await attempts(endpoint.id)
			expect(attempt.error).toBe('timed out after 700 ms')
		} finally {
			slow.closeAllConnections()
			slow.close()
		}
	})

	it('gives up on an endpoint answering 500 forever after the schedule, and disables it after the configured time', async () => {
		receiver.state.answer = answers.fail
		try {
			const { endpoint, job } = await endpointAt(receiver.url())
			// The schedule has two retries: attempts 1, 2 and 3, then nothing more is scheduled.
			for (const attempt of [1, 2, 3]) await run(LOOPBACK_ALLOWED, { ...job, attempt })
			const rows = await attempts(endpoint.id)
			expect(rows.map((r) => r.statusCode)).toEqual([500, 500, 500])
			expect((await findEndpoint(db, acme.id, endpoint.id))?.failing_since).toBeInstanceOf(Date)
			expect((await findEndpoint(db, acme.id, endpoint.id))?.disabled_at).toBeNull()
			// Failing for longer than allowed: the next failed attempt disables it, once.
			let told = 0
			const disabling = { ...LOOPBACK_ALLOWED, WEBHOOK_DISABLE_AFTER_SECONDS: 0.001 }
			await deliverWebhook({ db, env: disabling }, { ...job, attempt: 4 }, function* () {
				told++
				yield* []
			})
			const after = await findEndpoint(db, acme.id, endpoint.id)
			expect(after?.disabled_reason).toBe('failing')
			expect(told).toBe(1)
			expect(await run(LOOPBACK_ALLOWED, { ...job, attempt: 5 })).toBe('the endpoint is disabled')
		} finally {
			receiver.state.answer = answers.ok
		}
	})

	it('connects to the address it checked, not to a second lookup of the name (DNS rebinding)', async () => {
		// The name has no DNS record at all: only the checked answer can reach the receiver.
		let lookups = 0
		const resolve = async () => (lookups++, [{ address: '127.0.0.1', family: 4 }])
		const url = `http://rebinding.invalid:${receiver.port}/pinned`
		const target = await checkTarget(url, { production: false, allowLoopback: true }, resolve)
		const before = receiver.deliveries.length
		const result = await sendWebhook(target, { 'content-type': 'application/json' }, '{}', 700)
		expect(result).toMatchObject({ statusCode: 204, ok: true })
		expect(lookups).toBe(1)
		expect(receiver.deliveries.length).toBe(before + 1)
		// A name whose answer changed to a private address is refused before any connection.
		const rebound = async () => [{ address: '10.0.0.7', family: 4 }]
		await expect(checkTarget(url, { production: false, allowLoopback: true }, rebound)).rejects.toThrow(/private/)
	})

	it('records an attempt once when its job runs twice (a retried job after a crash)', async () => {
		const { endpoint, job } = await endpointAt(receiver.url())
		receiver.state.secrets = []
		await run(LOOPBACK_ALLOWED, job)
		expect(await run(LOOPBACK_ALLOWED, job)).toMatch(/already recorded/)
		expect(await attempts(endpoint.id)).toHaveLength(1)
	})

	it('never delivers an event to another tenant’s endpoint', async () => {
		const globex = (await db.orm.select().from(db.t.tenants)).find((t) => t.slug === 'globex')!
		const { endpoint } = await endpointAt(receiver.url())
		const eventId = await inTransaction(db, (tx) =>
			webhookEventSteps(tx, globex.id, 'user.created', { user: { id: 'g' } }),
		)
		expect(await run(LOOPBACK_ALLOWED, { eventId, endpointId: endpoint.id, attempt: 1 })).toBe(
			'the event or the endpoint is gone',
		)
	})
})

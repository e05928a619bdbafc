import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Env } from './env.server.ts'

/*
 * The Resend transport passes a message's extra headers on (a reminder's RFC 8058 List-Unsubscribe
 * pair, decision 0047), as SMTP does (read at the loopback SMTP server in tests/integration/reminders.test.ts).
 * Resend's API is a local server here (RESEND_BASE_URL, read by the SDK when it loads).
 */
describe('the Resend transport', () => {
	const bodies: Array<Record<string, unknown>> = []
	const keys: Array<string | undefined> = []
	const server = createServer((req, res) => {
		let body = ''
		req.on('data', (c) => (body += c))
		req.on('end', () => {
			bodies.push(JSON.parse(body) as Record<string, unknown>)
			keys.push(req.headers['idempotency-key'] as string | undefined)
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'sent-1' }))
		})
	})
	beforeAll(async () => {
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
		process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as { port: number }).port}`
	})
	afterAll(async () => {
		delete process.env.RESEND_BASE_URL
		await new Promise((r) => server.close(r))
	})

	it('sends List-Unsubscribe and List-Unsubscribe-Post with the message', async () => {
		const { createMailer } = await import('./mailer.server.ts')
		const mailer = createMailer({ RESEND_API_KEY: 're_test', EMAIL_FROM: 'noreply@lms.test', NODE_ENV: 'test' } as Env)
		const headers = {
			'List-Unsubscribe': '<https://learn.acme.test/learn/unsubscribe/t>',
			'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
		}
		const sent = await mailer.send({
			to: 'a@b.test',
			subject: 's',
			text: 't',
			html: '<p>t</p>',
			kind: 'reminder_inactivity',
			headers,
		})
		expect(sent).toBe(true)
		expect(bodies).toHaveLength(1)
		expect(bodies[0]).toMatchObject({ to: 'a@b.test', headers })
		expect(keys[0]).toBeUndefined()
	})

	it('sends a job mail’s key as the idempotency key, so Resend takes a repeated attempt once (decision 0058)', async () => {
		const { createMailer } = await import('./mailer.server.ts')
		const mailer = createMailer({ RESEND_API_KEY: 're_test', EMAIL_FROM: 'noreply@lms.test', NODE_ENV: 'test' } as Env)
		const email = { to: 'a@b.test', subject: 's', text: 't', html: '<p>t</p>', kind: 'magic_link', key: 'job-1.0' }
		expect(await mailer.send(email)).toBe(true)
		expect(keys.at(-1)).toBe('job-1.0')
	})
})

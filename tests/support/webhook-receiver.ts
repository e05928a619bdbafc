import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/*
 * A webhook receiver on loopback for the tests (decision 0072): it verifies every delivery with the
 * standardwebhooks library against the secrets it is given, records it, and de-duplicates by
 * `webhook-id` as a receiver must (at-least-once delivery): `effects` holds one entry per message.
 * How it answers is the test's choice (`answer`): 200, 500, a redirect, never (a hanging endpoint).
 */

export interface ReceivedDelivery {
	id: string
	timestamp: number
	signature: string
	body: string
	type: string
	data: Record<string, unknown>
	/** The secrets (by index in `secrets`) under which Webhook.verify accepted it. */
	verifiedBy: number[]
	at: number
}

type Answer = (res: http.ServerResponse) => void

export const answers = {
	ok: ((res) => res.writeHead(204).end()) as Answer,
	fail: ((res) => res.writeHead(500).end('no')) as Answer,
	redirect:
		(location: string): Answer =>
		(res) =>
			res.writeHead(307, { location }).end(),
	/** Never answers (the connection stays open until the sender gives up). */
	hang: (() => {}) as Answer,
}

export async function startWebhookReceiver() {
	const deliveries: ReceivedDelivery[] = []
	const effects = new Map<string, ReceivedDelivery>()
	const state = { secrets: [] as string[], answer: answers.ok }
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (c: Buffer) => chunks.push(c))
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8')
			const headers = {
				'webhook-id': String(req.headers['webhook-id'] ?? ''),
				'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
				'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
			}
			const verifiedBy = state.secrets.flatMap((secret, i) => {
				try {
					new Webhook(secret).verify(body, headers)
					return [i]
				} catch {
					return []
				}
			})
			let parsed: { type?: string; data?: Record<string, unknown> } = {}
			try {
				parsed = JSON.parse(body)
			} catch {
				// recorded as it came
			}
			const delivery: ReceivedDelivery = {
				id: headers['webhook-id'],
				timestamp: Number(headers['webhook-timestamp']),
				signature: headers['webhook-signature'],
				body,
				type: parsed.type ?? '',
				data: parsed.data ?? {},
				verifiedBy,
				at: Date.now(),
			}
			deliveries.push(delivery)
			// The receiver's one effect per message: only a verified delivery counts, once per webhook-id.
			if (verifiedBy.length > 0 && !effects.has(delivery.id)) effects.set(delivery.id, delivery)
			state.answer(res)
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.address() as AddressInfo).port
	return {
		port,
		/** Stops listening and drops every connection (a receiver gone): senders are refused. */
		down: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve())
				server.closeAllConnections()
			}),
		/** Listens again on the same port. */
		up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
		url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
		deliveries,
		effects,
		state,
		/** Resolves with the verified effects once `done` holds for them; throws after `timeoutMs`. */
		async waitFor(done: (effects: ReceivedDelivery[]) => boolean, timeoutMs = 20_000) {
			const deadline = Date.now() + timeoutMs
			for (;;) {
				const list = [...effects.values()]
				if (done(list)) return list
				if (Date.now() > deadline)
					throw new Error(
						`webhook receiver: still waiting after ${timeoutMs} ms; got ${list.map((d) => d.type).join(', ')}`,
					)
				await new Promise((r) => setTimeout(r, 50))
			}
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>

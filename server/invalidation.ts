import { randomUUID } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { TagStore } from '#app/content/cache-tags.server.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import type { Database } from '#db/client.ts'

const CHANNEL = 'lms_tags'

export interface RedisPubSub {
	publish(channel: string, message: string): Promise<unknown>
	/** A second connection in subscriber mode (node-redis `duplicate()`). */
	subscribe(channel: string, onMessage: (message: string) => void): Promise<unknown>
	unsubscribe(channel: string): Promise<unknown>
}

/**
 * Carries cache-tag revalidations between the processes of one deployment:
 * PostgreSQL LISTEN/NOTIFY when the database is PostgreSQL, Redis pub/sub
 * when REDIS_URL is set, both when both are. A revalidation made here is
 * sent out; one received is applied as `remote` and not sent on. Messages
 * carry an id, so one that arrives on both transports is applied once.
 * SQLite without Redis is a single process: nothing to do.
 */
export async function connectInvalidation(tags: TagStore, transports: { db: Database; redis?: RedisPubSub | null }) {
	const self = randomUUID()
	const closers: Array<() => Promise<unknown>> = []

	const receive = receiver(tags, self)

	const senders: Array<(payload: string) => Promise<unknown>> = []
	let closed = false
	const subscribe = (name: string, start: () => Promise<() => Promise<unknown>>) =>
		untilSubscribed(name, start, () => closed).then((close) => void (close && closers.push(close)))
	const started: Array<Promise<void>> = []
	if (transports.db.pubsub) {
		const pubsub = transports.db.pubsub
		started.push(
			subscribe('postgres', async () => {
				const listening = await pubsub.listen(CHANNEL, receive)
				return () => listening.unlisten()
			}),
		)
		senders.push((payload) => pubsub.notify(CHANNEL, payload))
	}
	if (transports.redis) {
		const redis = transports.redis
		started.push(
			subscribe('redis', async () => {
				await redis.subscribe(CHANNEL, receive)
				return () => redis.unsubscribe(CHANNEL)
			}),
		)
		senders.push((payload) => redis.publish(CHANNEL, payload))
	}
	// Wait a moment for the subscriptions, but never block the start on them.
	await Promise.race([Promise.all(started), new Promise((r) => setTimeout(r, 3_000).unref?.())])

	const unsubscribe = tags.subscribe((list, origin) => {
		if (origin === 'remote' || senders.length === 0) return
		// NOTIFY payloads stop at 8000 bytes: long lists go out in several messages.
		for (const chunk of chunks(list, 6000)) {
			const payload = JSON.stringify({ id: randomUUID(), from: self, tags: chunk })
			for (const send of senders)
				send(payload).catch((error) => log.error('invalidation/send-failed', { error: describeError(error) }))
		}
	})

	return {
		transports: senders.length,
		async close() {
			closed = true
			unsubscribe()
			await Promise.allSettled(closers.map((close) => close()))
		},
	}
}

/** Applies a message from another process once: never our own, nor one already seen on the other transport. */
export function receiver(tags: TagStore, self: string) {
	const seen = new LRUCache<string, true>({ max: 1000 })
	return (raw: string) => {
		try {
			const message = JSON.parse(raw) as { id: string; from: string; tags: string[] }
			if (message.from === self || seen.has(message.id) || !Array.isArray(message.tags)) return
			seen.set(message.id, true)
			tags.revalidate(
				message.tags.filter((t) => typeof t === 'string'),
				'remote',
			)
		} catch (error) {
			log.warn('invalidation/bad-message', { error: describeError(error) })
		}
	}
}

/**
 * Subscribes, retrying with backoff while the transport is down (the database restarting): the
 * process serves meanwhile, and health reports the outage. Resolves with the unsubscribe, or
 * null when closed first.
 */
async function untilSubscribed(
	name: string,
	start: () => Promise<() => Promise<unknown>>,
	isClosed: () => boolean,
): Promise<(() => Promise<unknown>) | null> {
	for (let attempt = 0; !isClosed(); attempt++) {
		try {
			return await start()
		} catch (error) {
			log.error('invalidation/subscribe-failed', { transport: name, error: describeError(error) })
			await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** attempt, 10_000)).unref?.())
		}
	}
	return null
}

function chunks(tags: string[], maxBytes: number) {
	const out: string[][] = [[]]
	let size = 0
	for (const tag of tags) {
		const bytes = Buffer.byteLength(tag) + 3
		if (size + bytes > maxBytes && out[out.length - 1].length) {
			out.push([])
			size = 0
		}
		out[out.length - 1].push(tag)
		size += bytes
	}
	return out
}

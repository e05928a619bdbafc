import { createHash } from 'node:crypto'
import type { Database } from '#db/client.ts'
import { hitWindow, unhitWindow } from '#db/rate-limits.ts'
import { jsonError } from './errors.ts'
import { describeError, log } from './log.server.ts'
import { LRUCache } from 'lru-cache'

/** Named policies (spec, Limits). Numbers the spec leaves open are in docs/decisions/0004-accounts.md. */
export const POLICIES = {
	'auth.signIn': { points: 10, windowMs: 15 * 60_000 },
	magic: { points: 5, windowMs: 15 * 60_000 },
	signUp: { points: 5, windowMs: 60 * 60_000 },
	// a school behind one NAT address signs up together; this only stops floods
	signUpIp: { points: 100, windowMs: 60 * 60_000 },
	passwordReset: { points: 5, windowMs: 15 * 60_000 },
	// the account page (decision 0023): a password change tries the current password like a sign-in does
	passwordChange: { points: 10, windowMs: 15 * 60_000 },
	// a display name is what staff and the audit log know a learner by (decision 0031): a few corrections, not a stream
	nameChange: { points: 10, windowMs: 60 * 60_000 },
	verificationResend: { points: 3, windowMs: 60 * 60_000 },
	verificationResendIp: { points: 20, windowMs: 60 * 60_000 },
	// the account page's time zone and calendar link (decision 0045): a new link is a write and revokes the old one
	dueSettings: { points: 20, windowMs: 60 * 60_000 },
	enrollment: { points: 30, windowMs: 60_000 },
	quizSubmission: { points: 20, windowMs: 60_000 },
	// an assignment hand-in streams up to 30 MB into the database (decision 0027)
	handIn: { points: 10, windowMs: 60_000 },
	// a handed-in file streams up to 10 MB out of the database (decision 0030): two a second for a grader
	// going through a queue, a stop to a loop
	fileDownload: { points: 120, windowMs: 60_000 },
	revalidation: { points: 60, windowMs: 60_000 },
	adminMutation: { points: 60, windowMs: 60_000 },
	// per invitation (decision 0026): a resend mails a stranger's inbox, so an admin's 60 mutations a minute are too many
	invitationResend: { points: 3, windowMs: 60 * 60_000 },
	// per course (decision 0047): each announcement mails every learner of the course, whoever of its staff writes it
	announcement: { points: 3, windowMs: 24 * 60 * 60_000 },
	// data rights (decision 0044): an archive reads every row of a person and streams their files
	dataArchive: { points: 5, windowMs: 60 * 60_000 },
	// a tenant admin's copies of people's data (decision 0063): a school answering requests, not a bulk export
	personArchive: { points: 20, windowMs: 60 * 60_000 },
	// an erasure cannot be undone: a few an hour per admin, a stop to a stolen session erasing a school
	erasure: { points: 10, windowMs: 60 * 60_000 },
	// per SCIM token (decision 0070): an identity provider's sync of a large school, paced; a stop to a stolen token
	scim: { points: 600, windowMs: 60_000 },
	// per API key (decision 0071): ten calls a second on average, a sync of thousands of rows in minutes
	apiKey: { points: 600, windowMs: 60_000 },
} as const

export type Policy = keyof typeof POLICIES

interface RateLimitResult {
	allowed: boolean
	/** Seconds until the next attempt may succeed; 0 when allowed. */
	retryAfter: number
	/** Takes this hit back from the store that counted it (the attempt failed for our reasons, not the client's). */
	undo?: () => Promise<void>
}

/**
 * The policies that bound guessing a credential (a password, a mailed link): their counts must
 * survive a Redis restart and be shared while Redis is down, so with a shared driver they are
 * kept in the database, which each of their actions needs anyway (decision 0035).
 */
const DURABLE_POLICIES: ReadonlySet<Policy> = new Set([
	'auth.signIn',
	'magic',
	'passwordReset',
	'passwordChange',
	'signUp',
	'verificationResend',
	'invitationResend',
	'announcement',
])

/** For a JSON route: null while the policy allows the request, else the 429 envelope with Retry-After. */
export async function limitJson(driver: RateLimitDriver, policy: Policy, key: string, error: string) {
	const { allowed, retryAfter } = await driver.consume(policy, key)
	return allowed ? null : jsonError(429, 'RATE_LIMITED', error, { headers: { 'retry-after': String(retryAfter) } })
}

/**
 * Where counts live. `memory` is one process; `redis`
 * and `upstash` share counts across every process behind this interface.
 */
export interface RateLimitDriver {
	consume(policy: Policy, key: string): Promise<RateLimitResult>
	/** Keys held in this process (the memory driver). */
	size?(): number
	/** True while a shared store fails and the limits count in this process only. */
	degraded?(): boolean
}

/** Keys the memory driver keeps at most: past that, the least recently used go (a flood of new keys cannot grow the process). */
const MEMORY_DRIVER_MAX_KEYS = 100_000

/**
 * One fixed window per policy and key, as the shared drivers count (WINDOW_SCRIPT): the first hit
 * starts it, and it ends `windowMs` later. lru-cache drops a window at its end (ttl) and bounds the
 * keys (decision 0066).
 */
export function createMemoryDriver(maxKeys = MEMORY_DRIVER_MAX_KEYS): RateLimitDriver {
	const windows = new LRUCache<string, { count: number; ends: number }>({ max: maxKeys })
	const open = (id: string, windowMs: number, now: number) => {
		const opened = { count: 0, ends: now + windowMs }
		windows.set(id, opened, { ttl: windowMs })
		return opened
	}
	return {
		async consume(policy, key) {
			const { points, windowMs } = POLICIES[policy]
			const now = Date.now()
			const id = `${policy}\u0000${key}`
			const hits = windows.get(id) ?? open(id, windowMs, now)
			if (hits.count >= points) return { allowed: false, retryAfter: Math.max(1, Math.ceil((hits.ends - now) / 1000)) }
			hits.count++
			return {
				allowed: true,
				retryAfter: 0,
				undo: async () => {
					hits.count = Math.max(0, hits.count - 1)
				},
			}
		},
		size: () => windows.size,
	}
}

// One fixed window per policy and key, shared by every process: the first hit
// starts the window, later hits count, and the remaining time is the answer's
// Retry-After. One atomic script, so concurrent hits from several processes
// count exactly.
const WINDOW_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {n, ttl}`

function storeKey(policy: Policy, key: string) {
	return `lms:rl:${policy}:${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`
}

/** Where a shared driver counts besides its store: the database (db/rate-limits.ts), when there is one. */
export interface WindowStore {
	hit(key: string, windowMs: number): Promise<[number, number]>
	unhit(key: string): Promise<void>
}

/**
 * The shared-store drivers: `hit` runs WINDOW_SCRIPT and answers [count, ttlMs]; `unhit` takes a
 * hit back. With a database store (decision 0035): the DURABLE_POLICIES count there always (a
 * failure there is the database being down, and the request is answered as such: it needed the
 * database anyway), and every other policy counts there while the shared store fails, so the
 * processes together still allow the policy once. Without one, or while the database fails too,
 * they count in this process's memory: each process then allows at most the policy's numbers,
 * never unlimited. No request waits on the shared store longer than STORE_DEADLINE_MS.
 */
function fixedWindowDriver(
	name: string,
	store: WindowStore,
	database?: WindowStore,
	local = createMemoryDriver(),
): RateLimitDriver {
	let failing = false
	let nextTry = 0
	const judge = (policy: Policy, [count, ttl]: [number, number], undo: () => Promise<void>): RateLimitResult => {
		const { points, windowMs } = POLICIES[policy]
		if (count <= points) return { allowed: true, retryAfter: 0, undo }
		return { allowed: false, retryAfter: Math.max(1, Math.ceil((ttl > 0 ? ttl : windowMs) / 1000)) }
	}
	const counted = async (where: WindowStore, policy: Policy, id: string) =>
		judge(policy, await where.hit(id, POLICIES[policy].windowMs), () => where.unhit(id))
	async function fallback(policy: Policy, key: string, id: string) {
		if (!database) return local.consume(policy, key)
		try {
			return await counted(database, policy, id)
		} catch (error) {
			log.warn('rate-limit/database-unavailable', { policy, fallback: 'memory', error: describeError(error) })
			return local.consume(policy, key)
		}
	}
	return {
		async consume(policy, key) {
			const id = storeKey(policy, key)
			if (database && DURABLE_POLICIES.has(policy)) return counted(database, policy, id)
			// While failing, the store is asked again at most once a second; the rest count in the fallback at once.
			if (failing && Date.now() < nextTry) return fallback(policy, key, id)
			try {
				const result = await counted(store, policy, id)
				if (failing) log.info('rate-limit/shared-again', { driver: name })
				failing = false
				return result
			} catch (error) {
				// Said once per outage, not once per request.
				if (!failing)
					log.error('rate-limit/unavailable', {
						driver: name,
						policy,
						fallback: database ? 'database' : 'memory',
						error: describeError(error),
					})
				failing = true
				nextTry = Date.now() + 1_000
				return fallback(policy, key, id)
			}
		},
		degraded: () => failing,
	}
}

/** The database as a shared driver's other store (db/rate-limits.ts). */
export function databaseWindows(db: Database): WindowStore {
	return { hit: (key, windowMs) => hitWindow(db, key, windowMs), unhit: (key) => unhitWindow(db, key) }
}

/**
 * The driver as one request sees it: what it counted is remembered, so that `undoAll` takes every
 * hit back when the request is answered with our failure (a 5xx other than the spec's 501: the database was down), which
 * must not count against the client's limit (decision 0035).
 */
export function perRequest(driver: RateLimitDriver) {
	const undos: Array<() => Promise<void>> = []
	return {
		driver: {
			...driver,
			async consume(policy: Policy, key: string) {
				const result = await driver.consume(policy, key)
				if (result.undo) undos.push(result.undo)
				return result
			},
		} satisfies RateLimitDriver,
		undoAll() {
			for (const undo of undos.splice(0))
				undo().catch((error) => log.warn('rate-limit/undo-failed', { error: describeError(error) }))
		},
	}
}

// Takes one hit back, never below zero nor from a window that has ended.
const UNHIT_SCRIPT = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return n`

export interface RedisLike {
	eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}

/** How long a rate-limited request waits for the shared store before it counts elsewhere. */
const STORE_DEADLINE_MS = 250

/**
 * Fails after `ms` whatever the command does. node-redis forgets a command's own timeout once the
 * command is written, so a Redis that stops answering (SIGSTOP, a partition) held every rate-limited
 * request until it came back; this deadline holds however far the command got.
 */
function within<T>(ms: number, work: Promise<T>) {
	let timer: NodeJS.Timeout | undefined
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
		timer.unref?.()
	})
	// The command may still fail after the deadline: nobody is waiting for it then.
	work.catch(() => {})
	return Promise.race([work, late]).finally(() => clearTimeout(timer))
}

/** RATE_LIMIT_DRIVER=redis: a self-hosted Redis (REDIS_URL); `database` as fixedWindowDriver says. */
export function createRedisDriver(client: RedisLike, database?: WindowStore): RateLimitDriver {
	return fixedWindowDriver(
		'redis',
		{
			async hit(key, windowMs) {
				const [count, ttl] = (await within(
					STORE_DEADLINE_MS,
					client.eval(WINDOW_SCRIPT, { keys: [key], arguments: [String(windowMs)] }),
				)) as [number, number]
				return [Number(count), Number(ttl)]
			},
			async unhit(key) {
				await within(STORE_DEADLINE_MS, client.eval(UNHIT_SCRIPT, { keys: [key], arguments: [] }))
			},
		},
		database,
	)
}

/** RATE_LIMIT_DRIVER=upstash: the Upstash REST protocol (UPSTASH_REDIS_REST_URL and _TOKEN). */
export function createUpstashDriver(url: string, token: string, database?: WindowStore): RateLimitDriver {
	const run = async (command: string[]) => {
		const response = await fetch(url.replace(/\/+$/, ''), {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify(command),
			signal: AbortSignal.timeout(500),
		})
		const body = (await response.json()) as { result?: unknown; error?: string }
		if (!response.ok || body.result === undefined) throw new Error(body.error ?? `status ${response.status}`)
		return body.result
	}
	return fixedWindowDriver(
		'upstash',
		{
			async hit(key, windowMs) {
				const result = (await run(['EVAL', WINDOW_SCRIPT, '1', key, String(windowMs)])) as [number, number]
				return [Number(result[0]), Number(result[1])]
			},
			async unhit(key) {
				await run(['EVAL', UNHIT_SCRIPT, '1', key])
			},
		},
		database,
	)
}

/**
 * The rate-limit key of a client address: an IPv4 address, or the /64 network
 * of an IPv6 one (a single subscriber is usually given a whole /64, so counting
 * per address would give one person 2^64 budgets).
 */
export function addressKey(ip: string) {
	if (!ip.includes(':')) return ip
	const [head, tail = ''] = ip.toLowerCase().split('::')
	const left = head ? head.split(':') : []
	const right = tail ? tail.split(':') : []
	const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
	return `${groups
		.slice(0, 4)
		.map((g) => g.replace(/^0+(?=.)/, ''))
		.join(':')}::/64`
}

/** The rate-limit key of a request with an email: client address (addressKey) plus the normalized email. */
export function ipEmailKey(ip: string, email: unknown) {
	return `${addressKey(ip)}|${typeof email === 'string' ? email.trim().toLowerCase() : ''}`
}

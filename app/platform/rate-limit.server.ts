import { createHash } from 'node:crypto'
import { jsonError } from './errors.ts'
import { describeError, log } from './log.server.ts'
import { RateLimiter } from 'limiter'

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
} as const

export type Policy = keyof typeof POLICIES

interface RateLimitResult {
	allowed: boolean
	/** Seconds until the next attempt may succeed; 0 when allowed. */
	retryAfter: number
}

/** For a JSON route: null while the policy allows the request, else the 429 envelope with Retry-After. */
export async function limitJson(driver: RateLimitDriver, policy: Policy, key: string, error: string) {
	const { allowed, retryAfter } = await driver.consume(policy, key)
	return allowed ? null : jsonError(429, 'RATE_LIMITED', error, { headers: { 'retry-after': String(retryAfter) } })
}

/**
 * Where counts live. `memory` (the limiter package) is one process; `redis`
 * and `upstash` share counts across every process behind this interface.
 */
export interface RateLimitDriver {
	consume(policy: Policy, key: string): Promise<RateLimitResult>
	/** Keys held in this process (the memory driver). */
	size?(): number
	/** True while a shared store fails and the limits count in this process only. */
	degraded?(): boolean
}

/** Keys the memory driver keeps at most: past that, expired ones go, then the oldest (a flood of new keys cannot grow the process). */
const MEMORY_DRIVER_MAX_KEYS = 100_000

export function createMemoryDriver(maxKeys = MEMORY_DRIVER_MAX_KEYS): RateLimitDriver {
	const limiters = new Map<string, { limiter: RateLimiter; expires: number }>()
	return {
		async consume(policy, key) {
			const { points, windowMs } = POLICIES[policy]
			const now = Date.now()
			const id = `${policy}\u0000${key}`
			let entry = limiters.get(id)
			if (!entry || entry.expires < now) {
				if (limiters.size >= maxKeys) {
					for (const [k, v] of limiters) if (v.expires < now) limiters.delete(k)
					// A Map iterates in insertion order: the oldest windows go first.
					for (const k of limiters.keys()) {
						if (limiters.size < maxKeys * 0.9) break
						limiters.delete(k)
					}
				}
				limiters.delete(id)
				entry = { limiter: new RateLimiter({ tokensPerInterval: points, interval: windowMs }), expires: now + windowMs }
				limiters.set(id, entry)
			}
			if (entry.limiter.tryRemoveTokens(1)) return { allowed: true, retryAfter: 0 }
			return { allowed: false, retryAfter: Math.max(1, Math.ceil((entry.expires - now) / 1000)) }
		},
		size: () => limiters.size,
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

/**
 * The shared-store drivers: `hit` runs WINDOW_SCRIPT and answers [count, ttlMs].
 * While the store fails (down, or slower than its client's timeout), the
 * limits count in this process's memory instead: each process then allows at
 * most the policy's numbers (so N processes allow N times them), never
 * unlimited, and no request waits on the store.
 */
function fixedWindowDriver(
	name: string,
	hit: (key: string, windowMs: number) => Promise<[number, number]>,
	local = createMemoryDriver(),
): RateLimitDriver {
	let failing = false
	let nextTry = 0
	return {
		async consume(policy, key) {
			const { points, windowMs } = POLICIES[policy]
			// While failing, the store is asked again at most once a second; the rest count locally at once.
			if (failing && Date.now() < nextTry) return local.consume(policy, key)
			try {
				const [count, ttl] = await hit(storeKey(policy, key), windowMs)
				if (failing) log.info('rate-limit/shared-again', { driver: name })
				failing = false
				if (count <= points) return { allowed: true, retryAfter: 0 }
				return { allowed: false, retryAfter: Math.max(1, Math.ceil((ttl > 0 ? ttl : windowMs) / 1000)) }
			} catch (error) {
				// Said once per outage, not once per request.
				if (!failing)
					log.error('rate-limit/unavailable', { driver: name, policy, fallback: 'memory', error: describeError(error) })
				failing = true
				nextTry = Date.now() + 1_000
				return local.consume(policy, key)
			}
		},
		degraded: () => failing,
	}
}

export interface RedisLike {
	eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}

/** RATE_LIMIT_DRIVER=redis: a self-hosted Redis (REDIS_URL). */
export function createRedisDriver(client: RedisLike): RateLimitDriver {
	return fixedWindowDriver('redis', async (key, windowMs) => {
		const [count, ttl] = (await client.eval(WINDOW_SCRIPT, { keys: [key], arguments: [String(windowMs)] })) as [
			number,
			number,
		]
		return [Number(count), Number(ttl)]
	})
}

/** RATE_LIMIT_DRIVER=upstash: the Upstash REST protocol (UPSTASH_REDIS_REST_URL and _TOKEN). */
export function createUpstashDriver(url: string, token: string): RateLimitDriver {
	return fixedWindowDriver('upstash', async (key, windowMs) => {
		const response = await fetch(url.replace(/\/+$/, ''), {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify(['EVAL', WINDOW_SCRIPT, '1', key, String(windowMs)]),
			signal: AbortSignal.timeout(500),
		})
		const body = (await response.json()) as { result?: [number, number]; error?: string }
		if (!response.ok || !body.result) throw new Error(body.error ?? `status ${response.status}`)
		return [Number(body.result[0]), Number(body.result[1])]
	})
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

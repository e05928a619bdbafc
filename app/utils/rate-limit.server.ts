import { RateLimiter } from 'limiter'

/** Named policies (spec, Limits). Numbers the spec leaves open are in docs/decisions/0004-accounts.md. */
export const POLICIES = {
	'auth.signIn': { points: 10, windowMs: 15 * 60_000 },
	magic: { points: 5, windowMs: 15 * 60_000 },
	signUp: { points: 5, windowMs: 60 * 60_000 },
	// a school behind one NAT address signs up together; this only stops floods
	signUpIp: { points: 100, windowMs: 60 * 60_000 },
	passwordReset: { points: 5, windowMs: 15 * 60_000 },
	enrollment: { points: 30, windowMs: 60_000 },
	quizSubmission: { points: 20, windowMs: 60_000 },
	revalidation: { points: 60, windowMs: 60_000 },
	adminMutation: { points: 60, windowMs: 60_000 },
} as const

export type Policy = keyof typeof POLICIES

export interface RateLimitResult {
	allowed: boolean
	/** Seconds until the next attempt may succeed; 0 when allowed. */
	retryAfter: number
}

/**
 * Where counts live. `memory` is one process; the redis and upstash drivers
 * (issue 10) share counts across processes behind this same interface.
 */
export interface RateLimitDriver {
	consume(policy: Policy, key: string): Promise<RateLimitResult>
}

export function createMemoryDriver(): RateLimitDriver {
	const limiters = new Map<string, { limiter: RateLimiter; expires: number }>()
	return {
		async consume(policy, key) {
			const { points, windowMs } = POLICIES[policy]
			const now = Date.now()
			if (limiters.size > 50_000) {
				for (const [k, v] of limiters) if (v.expires < now) limiters.delete(k)
			}
			const id = `${policy}\u0000${key}`
			let entry = limiters.get(id)
			if (!entry || entry.expires < now) {
				entry = { limiter: new RateLimiter({ tokensPerInterval: points, interval: windowMs }), expires: now + windowMs }
				limiters.set(id, entry)
			}
			if (entry.limiter.tryRemoveTokens(1)) return { allowed: true, retryAfter: 0 }
			return { allowed: false, retryAfter: Math.max(1, Math.ceil((entry.expires - now) / 1000)) }
		},
	}
}

/** The rate-limit key of a request with an email: client IP plus the normalized email. */
export function ipEmailKey(ip: string, email: unknown) {
	return `${ip}|${typeof email === 'string' ? email.trim().toLowerCase() : ''}`
}

import { z } from 'zod'

const optional = z.string().trim().min(1).optional()
const flag = z.enum(['true', 'false']).optional()

/** Exactly 32 bytes in canonical base64 (so that a typo is not read as another key). */
function isAesKey(value: string) {
	const bytes = Buffer.from(value, 'base64')
	return bytes.length === 32 && bytes.toString('base64') === value
}

const schema = z
	.object({
		// Production unless told otherwise: `npm start` and `npm run start:prod` serve real users.
		NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
		PORT: z.coerce.number().int().min(0).max(65535).default(3000),
		// How long a stopping process (SIGTERM) lets requests under way finish before it cuts them.
		DRAIN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(15),
		// How long a host's tenant is taken from the process's cache, then how much longer the last answer is
		// still given at once while it is looked up again (decision 0035): a stalled database holds no known host.
		HOST_CACHE_TTL_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
		HOST_CACHE_STALE_SECONDS: z.coerce.number().min(0).max(86_400).default(600),
		AUTH_SECRET: z.string().min(32, 'must be at least 32 characters'),
		DATABASE_URL: z.string().min(1),
		AUTH_URL: z.url().transform((u) => new URL(u).origin),
		AUTH_TRUST_HOST: flag,
		// Proxies in front of the app that append to X-Forwarded-For; 0 (the default) trusts none.
		TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
		AUTH_GOOGLE_ID: optional,
		AUTH_GOOGLE_SECRET: optional,
		AUTH_GITHUB_ID: optional,
		AUTH_GITHUB_SECRET: optional,
		// The key sealing tenants' identity-provider secrets (AES-256-GCM, decision 0069): 32 bytes in base64.
		// Unset, tenants cannot connect providers. Its value is never logged nor shown.
		SSO_ENCRYPTION_KEY: z
			.string()
			.trim()
			.refine(isAesKey, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
			.optional(),
		CMS_API_URL: z.url().transform((u) => u.replace(/\/+$/, '')),
		CMS_PROJECT_UUID: z.uuid(),
		CMS_API_UUID: z.uuid(),
		CMS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters'),
		// The CMS admin's origin (Strapi's, decision 0073): /admin/courses links each course to it; absent, no link.
		CMS_ADMIN_URL: z
			.url()
			.transform((u) => new URL(u).origin)
			.optional(),
		RATE_LIMIT_DRIVER: z.enum(['memory', 'upstash', 'redis']).default('memory'),
		UPSTASH_REDIS_REST_URL: z.url().optional(),
		UPSTASH_REDIS_REST_TOKEN: optional,
		REDIS_URL: z.url().optional(),
		EMAIL_FROM: z.email(),
		RESEND_API_KEY: optional,
		SMTP_HOST: optional,
		SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
		SMTP_USER: optional,
		SMTP_PASSWORD: optional,
		APP_BASE_DOMAIN: z
			.string()
			.trim()
			.toLowerCase()
			.regex(/^[a-z0-9.-]+$/, 'must be a host name without scheme or port'),
		SEED_DEMO_PASSWORD: optional,
		// The job queue (mail and housekeeping, docs/decisions/0033-job-queue.md): how often each process
		// looks for due jobs, how many times a failed job is retried (the first retry after
		// JOB_RETRY_DELAY_SECONDS, each next one twice as late, with jitter) before it is given up, and
		// how long an attempt may run before it is taken as dead (its process killed) and retried.
		JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
		JOB_RETRY_LIMIT: z.coerce.number().int().min(0).max(30).default(10),
		JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
		JOB_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
		// Reminders (docs/decisions/0047-reminders.md): how often the reminder sweep is scheduled (one job
		// per period across every process; 0 schedules none), and after how many days without activity in
		// a course an enrolled learner is reminded of it.
		REMINDER_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
		REMINDER_INACTIVITY_DAYS: z.coerce.number().int().min(1).max(365).default(7),
		// Hand-ins (docs/decisions/0034-bounded-hand-ins.md): how many bodies one process receives at once,
		// how long a further one waits for a slot before it is answered 503, how long a body may take to
		// arrive, and how old an unclaimed file must be before the sweep removes it (more than a body's
		// deadline, so that no file still arriving is taken).
		HAND_IN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
		HAND_IN_QUEUE_SECONDS: z.coerce.number().min(0).max(60).default(2),
		HAND_IN_BODY_SECONDS: z.coerce.number().min(1).max(1800).default(120),
		HAND_IN_ORPHAN_GRACE_SECONDS: z.coerce.number().min(1).max(86_400).default(600),
		// Outgoing webhooks (decision 0072): the waits before each retry of a failed delivery in seconds
		// (the default spans about a day: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), how long an endpoint
		// may fail before it is disabled and its tenant's admins are told, how long one attempt may take
		// (at most four fifths of JOB_TIMEOUT_SECONDS, so the queue never takes a live attempt for dead),
		// and whether endpoints on loopback addresses are allowed (development and tests only; private,
		// link-local and metadata addresses never are). Outside production plain http is allowed too.
		WEBHOOK_RETRY_SCHEDULE_SECONDS: z
			.string()
			.regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be a comma-separated list of seconds')
			.default('5,300,1800,7200,18000,36000,36000'),
		WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce
			.number()
			.min(1)
			.max(60 * 86_400)
			.default(5 * 86_400),
		WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
		WEBHOOK_ALLOW_LOOPBACK: flag,
		// The benchmark suite's baseline route (/bench/bare) answers only when this is true.
		BENCH_ROUTES: flag,
	})
	.superRefine((env, ctx) => {
		const need = (name: keyof typeof env, when: string) => {
			if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required when ${when}` })
		}
		if (env.RATE_LIMIT_DRIVER === 'upstash') {
			need('UPSTASH_REDIS_REST_URL', 'RATE_LIMIT_DRIVER=upstash')
			need('UPSTASH_REDIS_REST_TOKEN', 'RATE_LIMIT_DRIVER=upstash')
		}
		if (env.RATE_LIMIT_DRIVER === 'redis') need('REDIS_URL', 'RATE_LIMIT_DRIVER=redis')
		if (env.WEBHOOK_ALLOW_LOOPBACK === 'true' && env.NODE_ENV === 'production')
			ctx.addIssue({ code: 'custom', path: ['WEBHOOK_ALLOW_LOOPBACK'], message: 'is for development and tests only' })
		if (env.HAND_IN_ORPHAN_GRACE_SECONDS <= env.HAND_IN_BODY_SECONDS)
			ctx.addIssue({
				code: 'custom',
				path: ['HAND_IN_ORPHAN_GRACE_SECONDS'],
				message: 'must be longer than HAND_IN_BODY_SECONDS',
			})
		for (const provider of ['GOOGLE', 'GITHUB'] as const) {
			const id = env[`AUTH_${provider}_ID`]
			const secret = env[`AUTH_${provider}_SECRET`]
			if (Boolean(id) !== Boolean(secret)) {
				ctx.addIssue({
					code: 'custom',
					path: [id ? `AUTH_${provider}_SECRET` : `AUTH_${provider}_ID`],
					message: `must be set together with ${id ? `AUTH_${provider}_ID` : `AUTH_${provider}_SECRET`}`,
				})
			}
		}
	})

export type Env = z.infer<typeof schema>

export class EnvError extends Error {}

/** Parses the environment; on failure throws one line naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
	// An empty assignment in .env (`SMTP_HOST=`) means "not set".
	const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''))
	const result = schema.safeParse(cleaned)
	if (result.success) return result.data
	const issue = result.error.issues[0]
	const name = String(issue.path[0] ?? 'environment')
	const problem = cleaned[name] === undefined ? 'is missing' : `is invalid: ${issue.message}`
	throw new EnvError(`Configuration error: ${name} ${problem}`)
}

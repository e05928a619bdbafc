/**
 * Hostile class: account enumeration. Every form that takes an address
 * (forgot password, magic link, sign-up, sign-in, email change) is asked about
 * addresses that have an account here, on the platform, without a password,
 * and none. The answers must be the same in status, headers and body, and
 * their times must not tell the groups apart: 30 tries per group, interleaved
 * in random order, each prepared the same way (one account written first) and
 * timed alone (the work an answer leaves behind settles before the next one),
 * compared with a two-sided Mann-Whitney U test. A
 * difference significant at p < 0.001 is sampled again, and fails only if the
 * second sample confirms it (so chance alone fails a comparison about once in
 * a million runs, while a real difference fails both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/utils/password.server.ts'
import { findTenantBySlug, type Tenant } from '#db/tenants.ts'
import { createUser, noPassword } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { request, type TestResponse } from '#tests/support/http.ts'
import { startAppProcess, type AppProcess } from '#tests/support/process.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass, mannWhitneyP, median } from './support.ts'

const ACME = 'acme.localhost'
const TRIES = 30
const ALPHA = 0.001

describe.each(DIALECTS)('hostile enumeration on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let hash: string
	const hostile = hostileClass('enumeration', dialect)
	let address = 0
	let n = 0
	let app: AppProcess
	beforeAll(async () => {
		stack = await startStack(dialect)
		// The app measured runs in a process of its own, as it does for a client outside. Each try comes
		// from its own address (behind one trusted proxy): rate limits stay out of the picture.
		app = await startAppProcess({
			DATABASE_URL: stack.db.url,
			CMS_API_URL: stack.cms.url,
			SMTP_HOST: '127.0.0.1',
			SMTP_PORT: String(stack.mail.port),
			TRUSTED_PROXY_HOPS: '1',
		})
		acme = (await findTenantBySlug(stack.db, 'acme'))!
		hash = await hashPassword('a-good-long-secret')
	}, 90_000)
	afterAll(async () => {
		hostile.report()
		app?.child.kill('SIGTERM')
		await app?.exited
		await stack?.close()
	})

	const user = async (kind: 'password' | 'no-password') => {
		const email = `enum-${kind}-${++n}@acme.test`
		await createUser(stack.db, {
			tenant_id: acme.id,
			email,
			name: 'Enum Person',
			role: 'student',
			password_hash: kind === 'password' ? hash : noPassword(stack.db),
			email_verified_at: new Date(),
		})
		return email
	}
	const post = (path: string, form: Record<string, string>, cookie?: string) =>
		request(app.port, ACME, path, {
			method: 'POST',
			body: new URLSearchParams(form).toString(),
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: `http://${ACME}:${app.port}`,
				'x-forwarded-for': `198.18.${Math.floor(address / 250)}.${(address++ % 250) + 1}`,
				...(cookie ? { cookie } : {}),
			},
		})
	/** What a client can compare: status, headers but the per-response ones, and the body with the typed address and nonces blanked. */
	const answerOf = (res: TestResponse, email: string) => {
		const headers = Object.entries(res.headers)
			.filter(([k]) => !['date', 'content-length', 'content-security-policy', 'etag'].includes(k))
			.map(([k, v]) => `${k}: ${String(v).replace(/lms_session=[^;]+/, 'lms_session=…')}`)
			.sort()
		const body = res.text
			.replaceAll(email, 'EMAIL')
			.replace(/nonce="[^"]+"/g, 'nonce')
			.replace(/"_\d+":/g, '')
		return JSON.stringify([res.status, headers, body])
	}

	/**
	 * Times `TRIES` answers per group in random order and compares every group
	 * with the first: the same answers, and no significant time difference.
	 */
	async function compare(
		label: string,
		groups: Record<string, () => Promise<{ email: string; send: () => Promise<TestResponse> }>>,
	) {
		const names = Object.keys(groups)
		const sample = async () => {
			const order = names.flatMap((name) => Array.from({ length: TRIES }, () => name)).sort(() => Math.random() - 0.5)
			const times = Object.fromEntries(names.map((name) => [name, [] as number[]]))
			const answers = Object.fromEntries(names.map((name) => [name, new Set<string>()]))
			for (const name of order) {
				// Prepared first (accounts, sessions); only the request itself is timed.
				const { email, send } = await groups[name]()
				const started = performance.now()
				const res = await send()
				times[name].push(performance.now() - started)
				answers[name].add(answerOf(res, email))
				// Work left for after an answer (mail, received by the sink in this process) settles before the next request.
				await new Promise((r) => setTimeout(r, 25))
			}
			return { times, answers }
		}
		const sampled = await sample()
		const { answers } = sampled
		let { times } = sampled
		const [base, ...others] = names
		for (const other of others) {
			const same =
				answers[base].size === 1 && answers[other].size === 1 && [...answers[base]][0] === [...answers[other]][0]
			hostile.check(
				`${label}: ${other} answered as ${base}`,
				same,
				`${[...answers[base]][0]?.slice(0, 300)}\n≠\n${[...answers[other]][0]?.slice(0, 300)}`,
			)
			let p = mannWhitneyP(times[base], times[other])
			const first = p
			if (p < ALPHA) {
				;({ times } = await sample())
				p = mannWhitneyP(times[base], times[other])
			}
			const detail = `p ${first.toExponential(2)}${first < ALPHA ? ` then ${p.toExponential(2)}` : ''}, medians ${median(times[base]).toFixed(2)} / ${median(times[other]).toFixed(2)} ms`
			console.log(`enumeration ${label} (${dialect}) ${base} vs ${other}: ${detail}`)
			hostile.check(`${label}: ${other} vs ${base} in time`, first >= ALPHA || p >= ALPHA, detail)
		}
	}

	it('answers forgot-password the same for any address', async () => {
		await compare('forgot', {
			unknown: async () => {
				await user('password')
				const email = `nobody-${++n}@acme.test`
				return { send: () => post('/learn/forgot', { email }), email }
			},
			account: async () => {
				const email = await user('password')
				return { send: () => post('/learn/forgot', { email }), email }
			},
		})
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers magic-link requests the same for any address', async () => {
		await compare('magic', {
			unknown: async () => {
				await user('password')
				const email = `nobody-${++n}@acme.test`
				return { send: () => post('/learn/magic', { email }), email }
			},
			account: async () => {
				const email = await user('password')
				return { send: () => post('/learn/magic', { email }), email }
			},
		})
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers sign-up the same for a new and a taken address', async () => {
		await compare('sign-up', {
			new: async () => {
				await user('password')
				const email = `new-${++n}@acme.test`
				return {
					send: () => post('/learn/sign-up', { name: 'New Person', email, password: 'another-long-secret' }),
					email,
				}
			},
			taken: async () => {
				const email = await user('password')
				return {
					send: () => post('/learn/sign-up', { name: 'New Person', email, password: 'another-long-secret' }),
					email,
				}
			},
		})
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('answers a wrong sign-in the same for no account, an account, a platform account and an account without a password', async () => {
		const wrong = (email: string) => post('/learn/sign-in', { email, password: 'not-the-password' })
		await compare('sign-in', {
			unknown: async () => {
				await user('password')
				const email = `nobody-${++n}@acme.test`
				return { send: () => wrong(email), email }
			},
			account: async () => {
				const email = await user('password')
				return { send: () => wrong(email), email }
			},
			platform: async () => {
				await user('password')
				return { send: () => wrong('root@platform.test'), email: 'root@platform.test' }
			},
			'no password': async () => {
				const email = await user('no-password')
				return { send: () => wrong(email), email }
			},
		})
		expect(hostile.newFailures()).toEqual([])
	}, 180_000)

	it('answers an email change the same for a free and a taken address', async () => {
		// Each try from its own signed-in user: the change-email limit is per user.
		const signedIn = async () => {
			const email = await user('password')
			const res = await post('/learn/sign-in', { email, password: 'a-good-long-secret' })
			return String(res.headers['set-cookie']).match(/lms_session=[^;]+/)![0]
		}
		await compare('email change', {
			free: async () => {
				await user('password')
				const email = `free-${++n}@acme.test`
				const cookie = await signedIn()
				return {
					send: () =>
						post(
							'/learn/account',
							{ intent: 'change-email', newEmail: email, currentPassword: 'a-good-long-secret' },
							cookie,
						),
					email,
				}
			},
			taken: async () => {
				const email = await user('password')
				const cookie = await signedIn()
				return {
					send: () =>
						post(
							'/learn/account',
							{ intent: 'change-email', newEmail: email, currentPassword: 'a-good-long-secret' },
							cookie,
						),
					email,
				}
			},
		})
		expect(hostile.newFailures()).toEqual([])
	}, 180_000)
})

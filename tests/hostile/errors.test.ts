/**
 * Hostile class: what an error tells the client. Out-of-range query values,
 * a query that fails inside a loader, methods and request targets the server
 * does not serve, byte ranges of another scope's files: the answer is a clear
 * status with the security headers, never a stack trace, SQL, a file path or
 * the size of something the client may not see. The app under test runs with
 * NODE_ENV=development, because no mode may leak.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#app/platform/env.server.ts'
import { execRaw, DIALECTS } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'
const LEAK =
	/SqliteError|PostgresError|Failed query|\bselect\b.*\bfrom\b|node_modules|\/work\/|file:\/\/|\bat [\w.<>]+ \(|datatype mismatch|Unexpected Server Error\n\n/i

describe.each(DIALECTS)('hostile inputs for errors on %s', (dialect) => {
	let stack: Stack
	let admin: string
	let author: string
	const hostile = hostileClass('errors', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect, { NODE_ENV: 'development' })
		const signIn = async (email: string) => (await stack.signIn(email)).cookieHeader()
		admin = await signIn('admin@acme.test')
		author = await signIn('author@acme.test')
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	it('runs production mode unless told otherwise', () => {
		const { NODE_ENV: _, ...rest } = {
			...TEST_SECRETS,
			NODE_ENV: '',
			AUTH_URL: 'http://localhost',
			DATABASE_URL: 'file::memory:',
			CMS_API_URL: 'http://127.0.0.1:9/api/v1',
			EMAIL_FROM: 'a@b.test',
			APP_BASE_DOMAIN: 'localhost',
		}
		hostile.check('NODE_ENV default', parseEnv(rest).NODE_ENV === 'production')
		expect(hostile.newFailures()).toEqual([])
	})

	it('answers out-of-range query values with a page, never a 500', async () => {
		const values = [
			'1e309',
			'-1',
			'0',
			'1.5',
			'-0',
			'NaN',
			'Infinity',
			'99999999999999999999',
			'0x10',
			'',
			' 2',
			'1e3',
			'%00',
			'2,3',
		]
		for (const cookie of [admin, author]) {
			for (const value of values) {
				for (const path of ['/admin/courses/intro-to-web/dashboard', '/admin/courses/intro-to-web/dashboard.data']) {
					const res = await stack.request(ACME, `${path}?page=${encodeURIComponent(value)}`, { headers: { cookie } })
					hostile.check(
						`${path}?page=${value}`,
						res.status === 200 && !LEAK.test(res.text),
						`${res.status} ${res.text.match(LEAK)?.[0] ?? ''}`,
					)
				}
			}
		}
		for (const query of [
			'since=0000-01-01',
			'since=2024-02-30',
			'since=99999-01-01',
			'before=%2B275760-09-13T00:00:00.000Z',
			'before=1969-12-31T23:59:59Z',
			'before=2024-13-01T00:00:00Z',
			'since=1970-01-01&before=9999-12-31T23:59:59Z',
		]) {
			const res = await stack.request(ACME, `/admin/audit?${query}`, { headers: { cookie: admin } })
			hostile.check(`/admin/audit?${query}`, res.status === 200 && !LEAK.test(res.text), `${res.status}`)
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('sends no stack, SQL or path when a query fails inside a loader, as a page or as data', async () => {
		await execRaw(stack.db, 'ALTER TABLE audit_log RENAME TO audit_log_away')
		try {
			for (const path of ['/admin/audit', '/admin/audit.data', '/admin']) {
				const res = await stack.request(ACME, path, { headers: { cookie: admin } })
				hostile.check(
					`failing query on ${path}`,
					res.status >= 500 && !LEAK.test(res.text) && !res.text.includes('audit_log'),
					`${res.status} ${res.text.match(LEAK)?.[0] ?? ''}`,
				)
			}
		} finally {
			await execRaw(stack.db, 'ALTER TABLE audit_log_away RENAME TO audit_log')
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses methods and request targets it does not serve with 405 and 400, with the security headers', async () => {
		const raw = (method: string, path: string) =>
			new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
				const req = httpRequest(
					{ host: '127.0.0.1', port: stack.port, method, path, headers: { host: `${ACME}:${stack.port}` } },
					(res) => {
						res.resume()
						res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
					},
				)
				req.on('error', reject)
				req.end()
			})
		for (const [method, path, status] of [
			['TRACE', '/', 405],
			['TRACE', '/api/health', 405],
			// (Methods Node's HTTP parser does not know, like TRACK, get its own 400 before reaching the app.)
			['PROPFIND', '/learn', 405],
			['GET', 'http://evil.test/learn', 400],
			['GET', `http://${ACME}/learn`, 400],
			['OPTIONS', '*', 400],
		] as const) {
			const res = await raw(method, path)
			const headed = res.headers['x-content-type-options'] === 'nosniff' && res.headers['x-frame-options'] === 'DENY'
			hostile.check(
				`${method} ${path}`,
				res.status === status && headed && (status !== 405 || typeof res.headers.allow === 'string'),
				`${res.status}`,
			)
		}
		expect(hostile.newFailures()).toEqual([])
	})

	it('never tells the size of a file of another scope, whatever the Range', async () => {
		for (const range of ['bytes=999999999-', 'bytes=0-0', 'bytes=-1', 'bytes=5-1']) {
			for (const path of [
				'/api/cms/site/assets/http-diagram',
				'/api/cms/site/assets/http-diagram/download',
				'/api/cms/courses/advanced-css/assets/http-diagram',
				'/api/cms/courses/draft-course/assets/http-diagram',
			]) {
				const res = await stack.request(ACME, path, { headers: { range } })
				hostile.check(
					`${path} ${range}`,
					res.status === 404 && res.headers['content-range'] === undefined,
					`${res.status} ${res.headers['content-range'] ?? ''}`,
				)
			}
		}
		// Its own scope still answers ranges.
		const own = await stack.request(ACME, '/api/cms/courses/intro-to-web/assets/http-diagram', {
			headers: { range: 'bytes=0-9' },
		})
		hostile.check('own scope range', own.status === 206)
		expect(hostile.newFailures()).toEqual([])
	})
})

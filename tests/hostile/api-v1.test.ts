/**
 * Hostile class: the REST API (issue 49, decisions 0071 and 0087). Keys of another tenant, revoked,
 * malformed and missing keys, a key in the URL, a read-only key writing, a course-scoped key reaching
 * another course, a platform key on a site and a site's key on the platform, huge pages, bad cursors,
 * unknown filters and one Idempotency-Key reused with another body: each gets its clear problem
 * answer and writes nothing.
 */
import { and, eq, ne } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey, createPlatformKey } from '#tests/support/api-keys.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { recordAttempt } from '#tests/support/repository.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
// Stack frames, paths, SQL, driver errors.
const LEAKS = /at \w+ \(|node_modules|\/work\/|\bSELECT\b|SQLITE_|PostgresError/

describe.each(DIALECTS)('hostile REST API on %s', (dialect) => {
	let stack: Stack
	const hostile = hostileClass('api-v1', dialect)
	const keys = { write: '', read: '', course: '', globex: '', revoked: '', platform: '', platformRead: '' }
	beforeAll(async () => {
		stack = await startStack(dialect)
		keys.write = await createApiKey(stack, { scope: 'read_write' })
		keys.read = await createApiKey(stack, { scope: 'read' })
		keys.course = await createApiKey(stack, { scope: 'read_write', course: 'intro-to-web' })
		keys.globex = await createApiKey(stack, { scope: 'read_write', host: GLOBEX })
		keys.revoked = await createApiKey(stack, { scope: 'read_write', name: 'to revoke' })
		keys.platform = await createPlatformKey(stack, { scope: 'read_write' })
		keys.platformRead = await createPlatformKey(stack, { scope: 'read' })
		const k = stack.db.t.api_keys
		const [row] = await stack.db.orm
			.select()
			.from(k)
			.where(eq(k.prefix, keys.revoked.slice(0, 13)))
		const admin = await stack.signIn('admin@acme.test')
		const res = await admin.post('/admin/settings/api', { intent: 'revoke', id: row.id, confirmed: 'yes' })
		expect(res.status).toBe(302)
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	/** Everything a call could write, but a key's own last use. */
	async function written() {
		const t = stack.db.t
		const tables = [
			t.tenants,
			t.users,
			t.enrollments,
			t.invitations,
			t.certificates,
			t.api_idempotency,
			t.course_admin_assignments,
		]
		const rows = await Promise.all(tables.map((table) => stack.db.orm.select().from(table)))
		const audit = await stack.db.orm
			.select()
			.from(t.audit_log)
			.where(and(ne(t.audit_log.action, 'api_key.created'), ne(t.audit_log.action, 'api_key.revoked')))
		return JSON.stringify([rows, audit])
	}

	function call(
		path: string,
		options: {
			key?: string | null
			authorization?: string
			host?: string
			body?: unknown
			headers?: Record<string, string>
		} = {},
	) {
		const headers: Record<string, string> = { ...options.headers }
		if (options.authorization !== undefined) headers.authorization = options.authorization
		else if (options.key !== null) headers.authorization = `Bearer ${options.key ?? keys.write}`
		if (options.body !== undefined) headers['content-type'] = 'application/json'
		return stack.request(options.host ?? ACME, path, {
			method: options.body === undefined ? 'GET' : 'POST',
			headers,
			body: options.body === undefined ? undefined : JSON.stringify(options.body),
		})
	}

	/** One refused case: its status and code, problem details without leaks, and nothing written. */
	async function refused(label: string, status: number, code: string, send: () => Promise<TestResponse>) {
		const before = await written()
		const res = await send()
		const type = String(res.headers['content-type'])
		let body: Record<string, unknown> = {}
		try {
			body = res.json()
		} catch {
			// Checked below: not JSON.
		}
		hostile.check(`${label}: status`, res.status === status, `${res.status} ${res.text.slice(0, 200)}`)
		hostile.check(`${label}: problem+json`, type.startsWith('application/problem+json'), type)
		hostile.check(
			`${label}: code`,
			body.code === code && body.status === status && typeof body.error === 'string',
			res.text,
		)
		hostile.check(`${label}: no leak`, !LEAKS.test(res.text), res.text)
		hostile.check(`${label}: nothing written`, (await written()) === before)
	}

	const acmeUser = () => stack.seeded.users['acme:newbie@acme.test'].id
	const globexUser = () => stack.seeded.users['globex:learner@globex.test'].id
	const create = (key: string) => () => call('/api/v1/users', { key, body: { email: 'hostile@acme.test' } })

	it('refuses keys that are not this site’s own, live and well-formed', async () => {
		await refused('another tenant’s key on this host', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/users', { key: keys.globex }),
		)
		await refused('another tenant’s key writing on this host', 401, 'UNAUTHORIZED', create(keys.globex))
		await refused('this key on another tenant’s host', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/users', { host: GLOBEX }),
		)
		await refused('this key on the apex', 401, 'UNAUTHORIZED', () => call('/api/v1/users', { host: 'localhost' }))
		await refused('a revoked key', 401, 'UNAUTHORIZED', () => call('/api/v1/users', { key: keys.revoked }))
		await refused('a revoked key writing', 401, 'UNAUTHORIZED', create(keys.revoked))
		for (const authorization of [
			'Bearer lmsk_short',
			'Bearer',
			`Basic ${Buffer.from(`x:${keys.write}`).toString('base64')}`,
			`Bearer ${keys.write}x`,
			`Bearer ${keys.write.toUpperCase()}`,
			`Bearer ${keys.write} ${keys.write}`,
			`Bearer lmsk_${'A'.repeat(32)}`,
		])
			await refused(`malformed: ${authorization.slice(0, 20)}`, 401, 'UNAUTHORIZED', () =>
				call('/api/v1/users', { authorization }),
			)
		await refused('no key', 401, 'UNAUTHORIZED', () => call('/api/v1/users', { key: null }))
		await refused('no key writing', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/users', { key: null, body: { email: 'x@acme.test' } }),
		)
		const missing = await call('/api/v1/users', { key: null })
		expect(missing.headers['www-authenticate']).toBe('Bearer')
		expect(hostile.newFailures()).toEqual([])
	})

	it('keeps platform keys and site keys each to their own API and host', async () => {
		const tenant = (key: string, host = 'localhost') =>
			call('/api/v1/tenants', { key, host, body: { slug: 'hostile', name: 'Hostile', adminEmail: 'x@hostile.test' } })
		const status = (key: string, host = 'localhost') =>
			call(`/api/v1/tenants/${stack.seeded.tenants.globex.id}/status`, { key, host, body: { status: 'suspended' } })
		// A platform key works on the platform's host only, and only for tenants.
		await refused('platform key on a site’s host', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/users', { key: keys.platform }),
		)
		await refused('platform key listing tenants on a site’s host', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/tenants', { key: keys.platform }),
		)
		await refused('platform key creating a tenant on a site’s host', 401, 'UNAUTHORIZED', () =>
			tenant(keys.platform, ACME),
		)
		await refused('platform key on the custom domain', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/tenants', { key: keys.platform, host: 'learn.acme.test' }),
		)
		// A forwarded host names no other host here (no proxy is trusted): the request's own host decides.
		await refused('platform key on a site’s host, the apex forwarded', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/tenants', { key: keys.platform, headers: { 'x-forwarded-host': 'localhost' } }),
		)
		await refused('site key on the apex, its site forwarded', 401, 'UNAUTHORIZED', () =>
			call('/api/v1/users', { host: 'localhost', headers: { 'x-forwarded-host': ACME } }),
		)
		await refused('platform key reading people on the apex', 403, 'FORBIDDEN', () =>
			call('/api/v1/users', { key: keys.platform, host: 'localhost' }),
		)
		await refused('platform key creating people on the apex', 403, 'FORBIDDEN', () =>
			call('/api/v1/users', { key: keys.platform, host: 'localhost', body: { email: 'x@acme.test' } }),
		)
		// A site's key never manages tenants: on its own host it is the wrong kind, elsewhere not valid.
		await refused('site key listing tenants', 403, 'FORBIDDEN', () => call('/api/v1/tenants'))
		await refused('site key creating a tenant', 403, 'FORBIDDEN', () => tenant(keys.write, ACME))
		await refused('site key suspending a tenant', 403, 'FORBIDDEN', () => status(keys.write, ACME))
		await refused('site key on the apex', 401, 'UNAUTHORIZED', () => tenant(keys.write))
		// A read-only platform key reads; a forged, revoked-looking or re-kinded one is no key.
		await refused('read-only platform key creating a tenant', 403, 'FORBIDDEN', () => tenant(keys.platformRead))
		await refused('read-only platform key suspending', 403, 'FORBIDDEN', () => status(keys.platformRead))
		expect((await call('/api/v1/tenants', { key: keys.platformRead, host: 'localhost' })).status).toBe(200)
		for (const forged of [`lmsp_${'A'.repeat(32)}`, `lmsk_${keys.platform.slice(5)}`, `lmsp_${keys.write.slice(5)}`])
			await refused(`forged ${forged.slice(0, 9)}`, 401, 'UNAUTHORIZED', () => tenant(forged))
		await refused('platform key in the URL', 400, 'BAD_REQUEST', () =>
			call(`/api/v1/tenants?q=${keys.platform}`, { key: keys.platform, host: 'localhost' }),
		)
		await refused('platform key, unknown filter', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/tenants?slug=acme', { key: keys.platform, host: 'localhost' }),
		)
		await refused('platform key, tenant of another spelling', 404, 'NOT_FOUND', () =>
			call(`/api/v1/tenants/${stack.seeded.tenants.acme.id.toUpperCase()}`, { key: keys.platform, host: 'localhost' }),
		)
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses a key in the URL, even beside a good one in the header', async () => {
		for (const query of [`api_key=${keys.write}`, `key=${keys.write}`, `access_token=${keys.write}`, `q=${keys.write}`])
			await refused(`key in query: ${query.split('=')[0]}`, 400, 'BAD_REQUEST', () => call(`/api/v1/users?${query}`))
		await refused('key in query with none in the header', 400, 'BAD_REQUEST', () =>
			call(`/api/v1/users?api_key=${keys.write}`, { key: null }),
		)
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses a read-only key every write, and a course-scoped key every other course and people', async () => {
		const userId = acmeUser()
		await refused('read-only creating', 403, 'FORBIDDEN', create(keys.read))
		await refused('read-only changing a role', 403, 'FORBIDDEN', () =>
			call(`/api/v1/users/${userId}/role`, { key: keys.read, body: { role: 'tenant_admin' } }),
		)
		await refused('read-only deactivating', 403, 'FORBIDDEN', () =>
			call(`/api/v1/users/${userId}/deactivate`, { key: keys.read, body: {} }),
		)
		await refused('read-only enrolling', 403, 'FORBIDDEN', () =>
			call('/api/v1/enrollments', { key: keys.read, body: { userId, course: 'intro-to-web' } }),
		)
		await refused('course key listing another course', 403, 'FORBIDDEN', () =>
			call('/api/v1/enrollments?course=advanced-css', { key: keys.course }),
		)
		await refused('course key enrolling in another course', 403, 'FORBIDDEN', () =>
			call('/api/v1/enrollments', { key: keys.course, body: { userId, course: 'advanced-css' } }),
		)
		await refused('course key reading progress in another course', 403, 'FORBIDDEN', () =>
			call(`/api/v1/users/${userId}/progress/advanced-css`, { key: keys.course }),
		)
		await refused('course key listing certificates of another course', 403, 'FORBIDDEN', () =>
			call('/api/v1/certificates?course=advanced-css', { key: keys.course }),
		)
		await refused('course key listing quiz attempts of another course', 403, 'FORBIDDEN', () =>
			call('/api/v1/quiz-attempts?course=advanced-css', { key: keys.course }),
		)
		await refused('course key listing submissions of another course', 403, 'FORBIDDEN', () =>
			call(`/api/v1/submissions?user=${userId}&course=advanced-css`, { key: keys.course }),
		)
		await refused('course key listing people', 403, 'FORBIDDEN', () => call('/api/v1/users', { key: keys.course }))
		await refused('course key creating people', 403, 'FORBIDDEN', create(keys.course))
		// Its own course it reads.
		const own = await call('/api/v1/enrollments?course=intro-to-web', { key: keys.course })
		expect(own.status).toBe(200)
		const courses = await call('/api/v1/courses', { key: keys.course })
		expect(courses.json().data.map((c: { slug: string }) => c.slug)).toEqual(['intro-to-web'])
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses another tenant’s records by id as unknown', async () => {
		const id = globexUser()
		await refused('another tenant’s user', 404, 'NOT_FOUND', () => call(`/api/v1/users/${id}`))
		await refused('another tenant’s user deactivated', 404, 'NOT_FOUND', () =>
			call(`/api/v1/users/${id}/deactivate`, { body: {} }),
		)
		await refused('another tenant’s user enrolled', 404, 'NOT_FOUND', () =>
			call('/api/v1/enrollments', { body: { userId: id, course: 'intro-to-web' } }),
		)
		await refused('another tenant’s user’s progress', 404, 'NOT_FOUND', () =>
			call(`/api/v1/users/${id}/progress/globex-onboarding`),
		)
		// Lists filter within the key's site: another site's learner has no attempts here.
		await recordAttempt(
			stack.db,
			{ tenantId: stack.seeded.tenants.globex.id, userId: id },
			'globex-onboarding',
			'welcome-to-globex',
			3,
			{ score: 100, passed: true, answers: {}, feedback: [] },
		)
		for (const query of [`user=${id}`, 'course=globex-onboarding'])
			for (const list of ['quiz-attempts', 'submissions']) {
				const res = await call(`/api/v1/${list}?${query}`)
				expect([res.status, res.json().data]).toEqual([200, []])
			}
		const theirs = await call(`/api/v1/quiz-attempts?user=${id}`, { key: keys.globex, host: GLOBEX })
		expect(theirs.json().data).toHaveLength(1)
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses huge and malformed pages, bad cursors and unknown or repeated filters', async () => {
		for (const limit of ['100000', '201', '0', '-1', '1.5', 'abc', '1e3', ''])
			await refused(`limit=${limit}`, 400, 'VALIDATION_FAILED', () => call(`/api/v1/users?limit=${limit}`))
		const forged = Buffer.from("v1:' OR 1=1 --").toString('base64url')
		for (const cursor of ['garbage!', 'djE6', forged, 'x'.repeat(300), Buffer.from('v2:abc').toString('base64url')])
			await refused(
				`cursor=${cursor.slice(0, 12)}`,
				400,
				cursor.length > 200 ? 'VALIDATION_FAILED' : 'BAD_REQUEST',
				() => call(`/api/v1/users?cursor=${encodeURIComponent(cursor)}`),
			)
		for (const query of [
			'foo=bar',
			'status=active',
			'tenant_id=x',
			'email=a@acme.test&email=b@acme.test',
			'updated_since=yesterday',
			'role=root',
		])
			await refused(`filter ${query}`, 400, 'VALIDATION_FAILED', () => call(`/api/v1/users?${query}`))
		await refused('unknown filter on enrollments', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/enrollments?tenant=globex'),
		)
		await refused('unknown filter on quiz attempts', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/quiz-attempts?entry=basics-quiz'),
		)
		await refused('bad updated_since on submissions', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/submissions?updated_since=2026-13-45'),
		)
		await refused('huge page of submissions', 400, 'VALIDATION_FAILED', () => call('/api/v1/submissions?limit=201'))
		await refused('bad cursor on quiz attempts', 400, 'BAD_REQUEST', () =>
			call('/api/v1/quiz-attempts?cursor=garbage!'),
		)
		await refused('a query on courses', 400, 'VALIDATION_FAILED', () => call('/api/v1/courses?limit=5'))
		expect(hostile.newFailures()).toEqual([])
	})

	it('refuses bodies that are not the operation’s, and one Idempotency-Key with another body', async () => {
		await refused('not JSON', 400, 'BAD_REQUEST', () =>
			stack.request(ACME, '/api/v1/users', {
				method: 'POST',
				headers: { authorization: `Bearer ${keys.write}`, 'content-type': 'application/json' },
				body: '{"email":',
			}),
		)
		await refused('unknown field', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/users', { body: { email: 'x@acme.test', tenantId: 'globex' } }),
		)
		await refused('super admin asked', 400, 'VALIDATION_FAILED', () =>
			call('/api/v1/users', { body: { email: 'x@acme.test', role: 'super_admin' } }),
		)
		await refused('an existing address', 409, 'CONFLICT', () =>
			call('/api/v1/users', { body: { email: 'learner@acme.test' } }),
		)
		const headers = { 'idempotency-key': 'hostile-once' }
		const first = await call('/api/v1/users', { body: { email: 'once@acme.test' }, headers })
		expect(first.status).toBe(201)
		await refused('same Idempotency-Key, another body', 409, 'CONFLICT', () =>
			call('/api/v1/users', { body: { email: 'twice@acme.test' }, headers }),
		)
		await refused('same Idempotency-Key, another operation', 409, 'CONFLICT', () =>
			call('/api/v1/enrollments', { body: { userId: first.json().id, course: 'intro-to-web' }, headers }),
		)
		await refused('an Idempotency-Key of control characters', 400, 'BAD_REQUEST', () =>
			call('/api/v1/users', { body: { email: 'ctl@acme.test' }, headers: { 'idempotency-key': 'a b' } }),
		)
		expect(hostile.newFailures()).toEqual([])
	})
})

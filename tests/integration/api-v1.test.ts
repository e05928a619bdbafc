// The REST API (issue 49, decision 0071) through the client generated from the committed OpenAPI
// document: the integration walk (50 people created with one Idempotency-Key each, every request sent
// three times; enrolled; progress read), pages stable under inserts, updated_since, concurrent retries
// and ETags, quiz attempts and graded submissions, on both databases.
import { and, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordSubmissionSteps } from '#db/submissions.ts'
import { inTransaction } from '#db/transaction.ts'
import { createApiKey } from '#tests/support/api-keys.ts'
import { apiClient } from '#tests/support/api-client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { gradeSubmission, recordAttempt } from '#tests/support/repository.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

describe.each(DIALECTS)('the REST API on %s', (dialect) => {
	let stack: Stack
	let client: ReturnType<typeof apiClient>
	let secret = ''
	beforeAll(async () => {
		stack = await startStack(dialect)
		secret = await createApiKey(stack, { scope: 'read_write' })
		client = apiClient(stack, secret)
	})
	afterAll(async () => {
		await stack?.close()
	})

	const acmeId = () => stack.seeded.tenants.acme.id
	async function usersLike(pattern: string) {
		const u = stack.db.t.users
		const [row] = await stack.db.orm
			.select({ n: sql<number>`count(*)` })
			.from(u)
			.where(and(eq(u.tenant_id, acmeId()), like(u.email, pattern)))
		return Number(row.n)
	}

	it('walks: 50 people created with one Idempotency-Key each (each sent three times), enrolled, their progress read', async () => {
		const ids: string[] = []
		for (let i = 0; i < 50; i++) {
			const body = { email: `walk-${i}@acme.test`, name: `Walker ${i}` }
			const headers = { 'idempotency-key': `walk-create-${i}` }
			const answers = []
			for (let attempt = 0; attempt < 3; attempt++) answers.push(await client.POST('/api/v1/users', { body, headers }))
			expect(answers.map((a) => a.response.status)).toEqual([201, 201, 201])
			expect(answers[1].response.headers.get('idempotent-replayed')).toBe('true')
			expect(answers[2].data).toEqual(answers[0].data)
			ids.push(answers[0].data!.id)
		}
		expect(new Set(ids).size).toBe(50)
		expect(await usersLike('walk-%@acme.test')).toBe(50)

		for (const [i, userId] of ids.entries()) {
			const headers = { 'idempotency-key': `walk-enroll-${i}` }
			const first = await client.POST('/api/v1/enrollments', { body: { userId, course: 'intro-to-web' }, headers })
			const retry = await client.POST('/api/v1/enrollments', { body: { userId, course: 'intro-to-web' }, headers })
			expect(first.response.status).toBe(201)
			expect(retry.data).toEqual(first.data)
		}
		const course = await client.GET('/api/v1/enrollments', {
			params: { query: { course: 'intro-to-web', limit: 200 } },
		})
		expect(course.data!.data.filter((e) => ids.includes(e.userId))).toHaveLength(50)

		const progress = await client.GET('/api/v1/users/{userId}/progress/{courseSlug}', {
			params: { path: { userId: ids[0], courseSlug: 'intro-to-web' } },
		})
		expect(progress.response.status).toBe(200)
		expect(progress.data).toMatchObject({ userId: ids[0], courseSlug: 'intro-to-web', status: 'active', passed: false })
		expect(progress.data!.total).toBeGreaterThan(0)
		expect(progress.data!.completedCount).toBe(0)
	})

	async function usersPage(limit: number, cursor: string | undefined) {
		const page = await client.GET('/api/v1/users', { params: { query: { limit, cursor } } })
		expect(page.response.status).toBe(200)
		return page.data!
	}

	it('pages through people without repeats or gaps while others are added', async () => {
		const before = new Set<string>()
		let cursor: string | undefined
		do {
			const page = await usersPage(200, cursor)
			for (const u of page.data) before.add(u.id)
			cursor = page.nextCursor ?? undefined
		} while (cursor)
		const seen: string[] = []
		let added = 0
		cursor = undefined
		do {
			const page = await usersPage(7, cursor)
			seen.push(...page.data.map((u) => u.id))
			cursor = page.nextCursor ?? undefined
			// Someone new arrives between every two pages.
			const made = await client.POST('/api/v1/users', { body: { email: `page-${added++}@acme.test` } })
			expect(made.response.status).toBe(201)
		} while (cursor)
		expect(new Set(seen).size).toBe(seen.length)
		for (const id of before) expect(seen).toContain(id)
	})

	it('lists only what changed since an instant (updated_since), and by email and role', async () => {
		const since = new Date(Date.now() + 1).toISOString()
		await new Promise((resolve) => setTimeout(resolve, 5))
		const made = await client.POST('/api/v1/users', { body: { email: 'since@acme.test', role: 'tenant_admin' } })
		const changed = await client.GET('/api/v1/users', { params: { query: { updated_since: since } } })
		expect(changed.data!.data.map((u) => u.id)).toEqual([made.data!.id])
		const byEmail = await client.GET('/api/v1/users', { params: { query: { email: 'SINCE@acme.test' } } })
		expect(byEmail.data!.data.map((u) => u.email)).toEqual(['since@acme.test'])
		const admins = await client.GET('/api/v1/users', { params: { query: { role: 'tenant_admin' } } })
		expect(admins.data!.data.every((u) => u.role === 'tenant_admin')).toBe(true)
		expect(admins.data!.data.map((u) => u.email)).toEqual(
			expect.arrayContaining(['admin@acme.test', 'since@acme.test']),
		)
	})

	it('makes one row of ten concurrent retries with one Idempotency-Key, each answered the same', async () => {
		const body = { email: 'concurrent@acme.test', name: 'Connie Current' }
		const headers = { 'idempotency-key': 'concurrent-create' }
		const answers = await Promise.all(Array.from({ length: 10 }, () => client.POST('/api/v1/users', { body, headers })))
		expect(answers.map((a) => a.response.status)).toEqual(Array(10).fill(201))
		expect(new Set(answers.map((a) => a.data!.id)).size).toBe(1)
		expect(await usersLike('concurrent@acme.test')).toBe(1)
		const r = stack.db.t.api_idempotency
		const [row] = await stack.db.orm
			.select({ n: sql<number>`count(*)` })
			.from(r)
			.where(eq(r.idempotency_key, 'concurrent-create'))
		expect(Number(row.n)).toBe(1)
	})

	it('answers If-None-Match with 304 until the answer changes', async () => {
		const first = await client.GET('/api/v1/users/{userId}', {
			params: { path: { userId: stack.seeded.users['acme:newbie@acme.test'].id } },
		})
		const etag = first.response.headers.get('etag')!
		expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
		const again = await client.GET('/api/v1/users/{userId}', {
			params: { path: { userId: stack.seeded.users['acme:newbie@acme.test'].id } },
			headers: { 'if-none-match': etag },
		})
		expect(again.response.status).toBe(304)
		const userId = stack.seeded.users['acme:newbie@acme.test'].id
		const deactivated = await client.POST('/api/v1/users/{userId}/deactivate', {
			params: { path: { userId } },
			body: {},
		})
		expect(deactivated.data!.status).toBe('deactivated')
		const changed = await client.GET('/api/v1/users/{userId}', {
			params: { path: { userId } },
			headers: { 'if-none-match': etag },
		})
		expect(changed.response.status).toBe(200)
		expect(changed.response.headers.get('etag')).not.toBe(etag)
		const back = await client.POST('/api/v1/users/{userId}/reactivate', { params: { path: { userId } }, body: {} })
		expect(back.data!.status).not.toBe('deactivated')
	})

	it('lists a learner’s quiz attempts and graded submissions by course, in pages, since an instant; a course key sees its course only', async () => {
		const lena = { tenantId: acmeId(), userId: stack.seeded.users['acme:learner@acme.test'].id }
		const quiz = (score: number) => ({ score, passed: score >= 70, answers: {}, feedback: [] })
		await recordAttempt(stack.db, lena, 'intro-to-web', 'basics-quiz', 3, quiz(40))
		await recordAttempt(stack.db, lena, 'intro-to-web', 'basics-quiz', 3, quiz(90))
		await recordAttempt(stack.db, lena, 'advanced-css', 'final-quiz', 3, quiz(80))
		const handedIn = await inTransaction(stack.db, (tx) =>
			recordSubmissionSteps(tx, lena, 'intro-to-web', 'build-a-form', { text: 'My form', link: null, fileIds: [] }),
		)
		if (handedIn.kind !== 'recorded') throw new Error('the hand-in was refused')
		await new Promise((resolve) => setTimeout(resolve, 5))
		const since = new Date().toISOString()
		await new Promise((resolve) => setTimeout(resolve, 5))
		const grader = stack.seeded.users['acme:admin@acme.test'].id
		const grade = {
			status: 'graded',
			score: 8,
			maxScore: 10,
			passed: true,
			feedback: 'Good',
			gradedBy: grader,
		} as const
		await gradeSubmission(stack.db, lena.tenantId, handedIn.submission.id, grade)

		const query = { user: lena.userId, course: 'intro-to-web' }
		const attempts = await client.GET('/api/v1/quiz-attempts', { params: { query } })
		expect(attempts.data!.data.map((a) => [a.entrySlug, a.number, a.score, a.passed]).sort()).toEqual([
			['basics-quiz', 1, 40, false],
			['basics-quiz', 2, 90, true],
		])
		const first = await client.GET('/api/v1/quiz-attempts', { params: { query: { ...query, limit: 1 } } })
		const cursor = first.data!.nextCursor!
		const second = await client.GET('/api/v1/quiz-attempts', { params: { query: { ...query, limit: 1, cursor } } })
		expect([...first.data!.data, ...second.data!.data].map((a) => a.id).sort()).toEqual(
			attempts.data!.data.map((a) => a.id).sort(),
		)
		expect(second.data!.nextCursor).toBeNull()
		const everywhere = await client.GET('/api/v1/quiz-attempts', { params: { query: { user: lena.userId } } })
		expect(everywhere.data!.data.map((a) => a.courseSlug).sort()).toEqual([
			'advanced-css',
			'intro-to-web',
			'intro-to-web',
		])

		const submissions = await client.GET('/api/v1/submissions', { params: { query } })
		expect(submissions.data!.data).toEqual([
			expect.objectContaining({
				id: handedIn.submission.id,
				entrySlug: 'build-a-form',
				number: 1,
				textAnswer: 'My form',
				status: 'graded',
				score: 8,
				maxScore: 10,
				passed: true,
				feedback: 'Good',
				gradedBy: grader,
			}),
		])
		// Handed in before the instant, graded after it: a sync picks up the grade; the attempts it had.
		const changed = await client.GET('/api/v1/submissions', { params: { query: { ...query, updated_since: since } } })
		expect(changed.data!.data.map((s) => s.id)).toEqual([handedIn.submission.id])
		const noAttempts = await client.GET('/api/v1/quiz-attempts', {
			params: { query: { ...query, updated_since: since } },
		})
		expect(noAttempts.data!.data).toEqual([])

		// Lena's enrollment is older than the instant; completed after it, a sync of completions sees it.
		const e = stack.db.t.enrollments
		const lenaIn = and(eq(e.tenant_id, lena.tenantId), eq(e.user_id, lena.userId), eq(e.course_slug, 'intro-to-web'))
		const recent = async () =>
			(await client.GET('/api/v1/enrollments', { params: { query: { ...query, updated_since: since } } })).data!.data
		expect(await recent()).toEqual([])
		await stack.db.orm.update(e).set({ status: 'completed', completed_at: new Date() }).where(lenaIn)
		expect((await recent()).map((x) => x.status)).toEqual(['completed'])
		await stack.db.orm.update(e).set({ status: 'active', completed_at: null }).where(lenaIn)

		const etag = submissions.response.headers.get('etag')!
		const same = await client.GET('/api/v1/submissions', { params: { query }, headers: { 'if-none-match': etag } })
		expect(same.response.status).toBe(304)

		const courseKey = apiClient(stack, await createApiKey(stack, { scope: 'read', course: 'intro-to-web' }))
		const own = await courseKey.GET('/api/v1/quiz-attempts', { params: { query: { user: lena.userId } } })
		expect(own.data!.data.map((a) => a.courseSlug)).toEqual(['intro-to-web', 'intro-to-web'])
	})

	// The count is the rate-limit driver's (memory in tests), not the database's: one dialect shows it,
	// and its 601 calls cost about 10 s of a CI run.
	it.runIf(dialect === 'sqlite')(
		'limits each key on its own: past its 600 calls a minute a 429 problem with Retry-After, another key of the site unaffected',
		async () => {
			const busy = await createApiKey(stack, { scope: 'read', name: 'Busy' })
			const calm = await createApiKey(stack, { scope: 'read', name: 'Calm' })
			const call = (key: string) =>
				stack.request('acme.localhost', '/api/v1/users?limit=1', { headers: { authorization: `Bearer ${key}` } })
			// The limit's 600 calls, 50 at a time (as a client's parallel sync would send them).
			for (let sent = 0; sent < 600; sent += 50) {
				const statuses = await Promise.all(
					Array.from({ length: 50 }, () => call(busy)).map(async (r) => (await r).status),
				)
				expect(statuses).toEqual(Array(50).fill(200))
			}
			const limited = await call(busy)
			expect(limited.status).toBe(429)
			expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/)
			expect(limited.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED', type: 'about:blank' })
			const retryAfter = Number(limited.headers['retry-after'])
			expect(retryAfter >= 1 && retryAfter <= 60).toBe(true)
			expect((await call(calm)).status).toBe(200)
			expect((await call(busy)).status).toBe(429)
		},
	)

	it('audits what a key does under its creator, naming the key', async () => {
		const a = stack.db.t.audit_log
		const rows = await stack.db.orm.select().from(a).where(eq(a.action, 'user.created')).limit(1)
		expect(rows[0].actor_user_id).toBe(stack.seeded.users['acme:admin@acme.test'].id)
		expect(rows[0].metadata).toMatchObject({ via: 'api', viaId: expect.any(String) })
		const created = await stack.db.orm.select().from(a).where(eq(a.action, 'api_key.created'))
		expect(JSON.stringify(created)).not.toContain(secret)
	})

	it('manages keys at /admin/settings/api: field errors, the secret shown once, last use listed, revoke asked then done', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const empty = await admin.post('/admin/settings/api', { intent: 'create', name: '', scope: 'read' })
		expect(empty.status).toBe(400)
		expect(empty.text).toContain('Give the key a name.')
		const wrongCourse = await admin.post('/admin/settings/api', {
			intent: 'create',
			name: 'Elsewhere',
			scope: 'read',
			course: 'globex-onboarding',
		})
		expect(wrongCourse.status).toBe(400)
		const made = await admin.post('/admin/settings/api', { intent: 'create', name: 'Warehouse', scope: 'read' })
		expect(made.status).toBe(201)
		const key = /lmsk_[A-Za-z0-9_-]{32}/.exec(made.text)![0]
		expect(made.headers['cache-control']).toContain('no-store')
		const used = await apiClient(stack, key).GET('/api/v1/courses')
		expect(used.response.status).toBe(200)
		const list = await admin.get('/admin/settings/api')
		expect(list.text).toContain('Warehouse')
		expect(list.text).toContain(key.slice(0, 13))
		expect(list.text).not.toContain(key)
		expect(list.text).toContain('127.0.0.1')
		const k = stack.db.t.api_keys
		const [row] = await stack.db.orm.select().from(k).where(eq(k.name, 'Warehouse'))
		const asked = await admin.post('/admin/settings/api', { intent: 'revoke', id: row.id })
		expect(asked.status).toBe(200)
		expect(asked.text).toContain('Revoke the key “Warehouse”?')
		expect((await apiClient(stack, key).GET('/api/v1/courses')).response.status).toBe(200)
		const revoked = await admin.post('/admin/settings/api', { intent: 'revoke', id: row.id, confirmed: 'yes' })
		expect(revoked.status).toBe(302)
		expect((await apiClient(stack, key).GET('/api/v1/courses')).response.status).toBe(401)
		const a = stack.db.t.audit_log
		const audit = await stack.db.orm.select().from(a).where(eq(a.target_id, row.id))
		expect(audit.map((r) => r.action).sort()).toEqual(['api_key.created', 'api_key.revoked'])
		expect(JSON.stringify(audit)).not.toContain(key)
	})

	it('stops a key when its creator no longer administers the site', async () => {
		const key = await createApiKey(stack, { scope: 'read', name: 'Until demoted' })
		expect((await apiClient(stack, key).GET('/api/v1/courses')).response.status).toBe(200)
		const u = stack.db.t.users
		const adminId = stack.seeded.users['acme:admin@acme.test'].id
		await stack.db.orm.update(u).set({ role: 'student' }).where(eq(u.id, adminId))
		try {
			expect((await apiClient(stack, key).GET('/api/v1/courses')).response.status).toBe(401)
		} finally {
			await stack.db.orm.update(u).set({ role: 'tenant_admin' }).where(eq(u.id, adminId))
		}
		expect((await apiClient(stack, key).GET('/api/v1/courses')).response.status).toBe(200)
	})
})

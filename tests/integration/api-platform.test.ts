// Platform keys (issue 49, decision 0087): a super admin makes one at /admin/tenants/api on the apex
// (the secret shown once, audited), and another system manages tenants with it through the client
// generated from the committed OpenAPI document: lists stable in id order with status and
// updated_since filters, a tenant created with its first admin's invitation (one row for a retried
// Idempotency-Key), suspended and reactivated as the tenants page does, on both databases.
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPlatformKey } from '#tests/support/api-keys.ts'
import { apiClient } from '#tests/support/api-client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const APEX = 'localhost'

describe.each(DIALECTS)('platform keys on %s', (dialect) => {
	let stack: Stack
	let client: ReturnType<typeof apiClient>
	let secret = ''
	beforeAll(async () => {
		stack = await startStack(dialect)
		secret = await createPlatformKey(stack, { scope: 'read_write' })
		client = apiClient(stack, secret, APEX)
	})
	afterAll(async () => {
		await stack?.close()
	})

	const root = () => stack.seeded.users['platform:root@platform.test']

	it('is made by a super admin on the apex: shown once, stored as its hash beside its prefix, audited without a tenant', async () => {
		expect(secret).toMatch(/^lmsp_[A-Za-z0-9_-]{32}$/)
		const k = stack.db.t.api_keys
		const [row] = await stack.db.orm
			.select()
			.from(k)
			.where(eq(k.prefix, secret.slice(0, 13)))
		expect(row).toMatchObject({ tenant_id: null, course_slug: null, scope: 'read_write', created_by: root().id })
		expect(JSON.stringify(row)).not.toContain(secret)
		const page = await (await stack.signIn('root@platform.test', APEX)).get('/admin/tenants/api')
		expect(page.status).toBe(200)
		expect(page.text).toContain(secret.slice(0, 13))
		expect(page.text).not.toContain(secret)
		const a = stack.db.t.audit_log
		const audit = await stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.action, 'api_key.created'), eq(a.target_id, row.id)))
		expect(audit).toHaveLength(1)
		expect(audit[0]).toMatchObject({ tenant_id: null, actor_user_id: root().id })
		expect(JSON.stringify(audit[0].metadata)).not.toContain(secret)
	})

	it('is the super admin’s alone: a tenant admin and a learner are refused the page and its form', async () => {
		for (const [email, host] of [
			['admin@acme.test', 'acme.localhost'],
			['learner@acme.test', 'acme.localhost'],
		]) {
			const browser = await stack.signIn(email, host)
			expect((await browser.get('/admin/tenants/api')).status).toBeGreaterThanOrEqual(403)
			const res = await browser.post('/admin/tenants/api', { intent: 'create', name: 'mine', scope: 'read_write' })
			expect(res.status).toBeGreaterThanOrEqual(403)
			expect(res.text).not.toMatch(/lmsp_/)
		}
	})

	it('lists every tenant in a stable order, by status and changes since an instant, with ETags', async () => {
		const all = await client.GET('/api/v1/tenants', { params: { query: { limit: 200 } } })
		expect(all.response.status).toBe(200)
		const slugs = all.data!.data.map((t) => t.slug)
		expect(slugs).toEqual(expect.arrayContaining(['acme', 'globex']))
		const ids = all.data!.data.map((t) => t.id)
		expect([...ids].sort()).toEqual(ids)
		const walked: string[] = []
		let cursor: string | undefined
		do {
			const page = await client.GET('/api/v1/tenants', { params: { query: { limit: 1, cursor } } })
			walked.push(...page.data!.data.map((t) => t.id))
			cursor = page.data!.nextCursor ?? undefined
		} while (cursor)
		expect(walked).toEqual(ids)
		const acme = all.data!.data.find((t) => t.slug === 'acme')!
		expect(acme).toMatchObject({
			status: 'active',
			url: expect.stringMatching(/^http:\/\/(acme\.localhost|learn\.acme\.test)/),
		})

		const read = await client.GET('/api/v1/tenants/{tenantId}', { params: { path: { tenantId: acme.id } } })
		expect(read.data).toEqual(acme)
		const etag = read.response.headers.get('etag')!
		const again = await client.GET('/api/v1/tenants/{tenantId}', {
			params: { path: { tenantId: acme.id } },
			headers: { 'if-none-match': etag },
		})
		expect(again.response.status).toBe(304)
		const missing = await client.GET('/api/v1/tenants/{tenantId}', { params: { path: { tenantId: 'nope' } } })
		expect(missing.response.status).toBe(404)
	})

	it('creates a tenant with its first admin invited, once for a retried Idempotency-Key, as the tenants page does', async () => {
		const body = { slug: 'hooli', name: 'Hooli', adminEmail: 'Boss@Hooli.test' }
		const headers = { 'idempotency-key': 'create-hooli' }
		const first = await client.POST('/api/v1/tenants', { body, headers })
		const retry = await client.POST('/api/v1/tenants', { body, headers })
		expect(first.response.status).toBe(201)
		expect(retry.response.status).toBe(201)
		expect(retry.response.headers.get('idempotent-replayed')).toBe('true')
		expect(retry.data).toEqual(first.data)
		expect(first.data).toMatchObject({ slug: 'hooli', name: 'Hooli', status: 'active', customDomain: null })
		const t = stack.db.t.tenants
		expect(await stack.db.orm.select().from(t).where(eq(t.slug, 'hooli'))).toHaveLength(1)
		const i = stack.db.t.invitations
		const invitations = await stack.db.orm.select().from(i).where(eq(i.tenant_id, first.data!.id))
		expect(invitations).toMatchObject([{ email: 'boss@hooli.test', role: 'tenant_admin' }])
		const a = stack.db.t.audit_log
		const created = await stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.action, 'tenant.created'), eq(a.target_id, first.data!.id)))
		expect(created).toHaveLength(1)
		expect(created[0].actor_user_id).toBe(root().id)
		expect(created[0].metadata).toMatchObject({ via: 'api' })

		// Taken, reserved or malformed: refused with the field named, nothing made.
		const taken = await client.POST('/api/v1/tenants', { body: { ...body, adminEmail: 'other@hooli.test' } })
		expect(taken.response.status).toBe(409)
		for (const [field, wrong] of [
			['slug', { ...body, slug: 'Not A Label!' }],
			['customDomain', { ...body, slug: 'hooli-2', customDomain: 'evil.localhost' }],
			['adminEmail', { ...body, slug: 'hooli-3', adminEmail: 'nobody' }],
		] as const) {
			const res = await client.POST('/api/v1/tenants', { body: wrong })
			expect(res.response.status, field).toBe(400)
			expect(JSON.stringify(res.error), field).toContain(field)
		}
		expect(await stack.db.orm.select().from(t).where(eq(t.name, 'Hooli'))).toHaveLength(1)
	})

	it('suspends a tenant (its pages answer 503, its people are signed out) and reactivates it, audited with the key', async () => {
		const globex = stack.seeded.tenants.globex
		const learner = await stack.signIn('learner@globex.test', 'globex.localhost')
		expect((await learner.get('/learn/dashboard')).status).toBe(200)
		const before = new Date(Date.now() - 1_000).toISOString()

		const suspended = await client.POST('/api/v1/tenants/{tenantId}/status', {
			params: { path: { tenantId: globex.id } },
			body: { status: 'suspended' },
		})
		expect(suspended.response.status).toBe(200)
		expect(suspended.data).toMatchObject({ status: 'suspended', suspendedAt: expect.any(String) })
		expect((await stack.request('globex.localhost', '/learn')).status).toBe(503)
		const changed = await client.GET('/api/v1/tenants', { params: { query: { updated_since: before } } })
		expect(changed.data!.data.map((t) => t.slug)).toContain('globex')
		// The seed's Initech is suspended too.
		const bySuspended = await client.GET('/api/v1/tenants', { params: { query: { status: 'suspended' } } })
		expect(bySuspended.data!.data.map((t) => t.slug).sort()).toEqual(['globex', 'initech'])

		const again = await client.POST('/api/v1/tenants/{tenantId}/status', {
			params: { path: { tenantId: globex.id } },
			body: { status: 'active' },
		})
		expect(again.data).toMatchObject({ status: 'active', suspendedAt: null })
		expect((await stack.request('globex.localhost', '/learn')).status).toBe(200)
		// Signed out by the suspension: the session of before is gone for good.
		expect((await learner.get('/learn/dashboard')).status).toBe(302)
		const a = stack.db.t.audit_log
		const rows = await stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.target_id, globex.id), eq(a.target_kind, 'tenant')))
		const actions = rows.map((r) => r.action)
		expect(actions).toEqual(expect.arrayContaining(['tenant.suspended', 'tenant.activated']))
		for (const r of rows.filter((r) => r.action === 'tenant.suspended' || r.action === 'tenant.activated'))
			expect(r.metadata).toMatchObject({ via: 'api' })
	})

	it('stops working once revoked (asked first) or once its super admin is deactivated', async () => {
		const other = await createPlatformKey(stack, { scope: 'read', name: 'to revoke' })
		const otherClient = apiClient(stack, other, APEX)
		expect((await otherClient.GET('/api/v1/tenants')).response.status).toBe(200)
		const k = stack.db.t.api_keys
		const [row] = await stack.db.orm
			.select()
			.from(k)
			.where(and(eq(k.prefix, other.slice(0, 13)), isNull(k.tenant_id)))
		const browser = await stack.signIn('root@platform.test', APEX)
		const asked = await browser.post('/admin/tenants/api', { intent: 'revoke', id: row.id })
		expect(asked.status).toBe(200)
		expect(asked.text).toContain('Revoke the key “to revoke”?')
		expect((await otherClient.GET('/api/v1/tenants')).response.status).toBe(200)
		const done = await browser.post('/admin/tenants/api', { intent: 'revoke', id: row.id, confirmed: 'yes' })
		expect(done.status).toBe(302)
		expect((await otherClient.GET('/api/v1/tenants')).response.status).toBe(401)

		const u = stack.db.t.users
		await stack.db.orm.update(u).set({ deactivated_at: new Date() }).where(eq(u.id, root().id))
		try {
			expect((await client.GET('/api/v1/tenants')).response.status).toBe(401)
		} finally {
			await stack.db.orm.update(u).set({ deactivated_at: null }).where(eq(u.id, root().id))
		}
		expect((await client.GET('/api/v1/tenants')).response.status).toBe(200)
	})
})

import { strFromU8, unzipSync } from 'fflate'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { ARCHIVED_TABLES, erasedEmail } from '#db/data-rights.ts'
import { findUserById, updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { findInDatabase, plantPerson } from '#tests/support/person-data.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

// Issue 40, data rights (decision 0044): a learner's archive and an admin's erasure, over HTTP.
const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'

describe.each(DIALECTS)('data rights on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	let globexId: string
	let n = 0
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = (await findTenantBySlug(stack.db, 'acme'))!.id
		globexId = (await findTenantBySlug(stack.db, 'globex'))!.id
	})
	afterAll(() => stack?.close())

	/** A person with a row in every table, who can sign in with the demo password. */
	const person = async (tenantId = acmeId, other: { id: string } | null = null) => {
		const p = await plantPerson(stack.db, tenantId, `dr-${dialect}-${++n}`, other)
		await updateUser(stack.db, p.id, {
			password_hash: await hashPassword(DEMO_PASSWORD),
			email_verified_at: new Date(),
		})
		return p
	}
	const archive = (b: ReturnType<Stack['browser']>) => b.post('/learn/account/data', {})

	it('downloads one zip of everything about the signed-in learner and nothing about anyone else', async () => {
		const other = await person()
		const me = await person(acmeId, other)
		// The same address in another tenant: another person.
		const twin = await person(globexId)
		await updateUser(stack.db, twin.id, { email: me.email })
		const b = await stack.signIn(me.email)
		const page = await b.get('/learn/account')
		expect(page.text).toContain('action="/learn/account/data"')
		const res = await archive(b)
		expect(res.status).toBe(200)
		expect(res.headers['content-type']).toBe('application/zip')
		expect(String(res.headers['content-disposition'])).toMatch(
			/^attachment; filename="acme-my-data-\d{4}-\d\d-\d\d\.zip"$/,
		)
		expect(res.headers['cache-control']).toBe('private, no-store')
		const entries = unzipSync(new Uint8Array(res.body))
		const index = JSON.parse(strFromU8(entries['index.json']))
		expect(Object.keys(index.tables).sort()).toEqual([...ARCHIVED_TABLES].sort())
		const users = JSON.parse(strFromU8(entries['tables/users.json']))
		expect(users).toEqual([expect.objectContaining({ id: me.id, email: me.email, name: me.name })])
		expect(Buffer.from(entries[index.files[0].path]).toString()).toBe(me.fileBody)
		const all = Object.values(entries)
			.map((e) => Buffer.from(e).toString())
			.join('\n')
		for (const foreign of [other.email, other.name, twin.id, twin.name, 'password_hash', 'token_hash'])
			expect(all).not.toContain(foreign)
	})

	it('needs a session of this tenant and a POST, and counts downloads', async () => {
		const me = await person()
		const b = await stack.signIn(me.email)
		// A GET gives nothing and changes nothing.
		const get = await b.get('/learn/account/data')
		expect(get.status).toBe(302)
		expect(get.headers.location).toBe('/learn/account')
		// Anonymous, and the acme cookie on globex's host, lead to sign-in.
		expect((await archive(stack.browser(ACME))).status).toBe(302)
		const leftover = stack.browser(GLOBEX)
		for (const [k, v] of b.jar) leftover.jar.set(k, v)
		const foreign = await archive(leftover)
		expect(foreign.status).toBe(302)
		expect(foreign.headers.location).toMatch(/^\/learn\/sign-in/)
		// Another site's form posting here (a browser sends its Origin) gets nothing.
		const crossSite = await b.post('/learn/account/data', {}, { origin: 'http://evil.test' })
		expect(crossSite.status).toBe(403)
		expect(crossSite.headers['content-type']).not.toBe('application/zip')
		// Any other method is no download either.
		const put = await stack.request(ACME, '/learn/account/data', {
			method: 'PUT',
			headers: { cookie: b.cookieHeader() },
		})
		expect(put.status).toBe(405)
		expect(put.headers['content-type']).not.toBe('application/zip')
		// A platform account has no archive on a tenant's site.
		const root = await stack.signIn('root@platform.test', 'localhost')
		expect((await root.post('/learn/account/data', {})).status).toBe(404)
		// Five an hour, then back to the account page with a notice.
		const statuses: number[] = []
		for (let i = 0; i < 6; i++) statuses.push((await archive(b)).status)
		expect(statuses).toEqual([200, 200, 200, 200, 200, 303])
		const limited = await archive(b)
		expect(limited.headers.location).toBe('/learn/account?notice=archive-limited')
		expect((await b.get(String(limited.headers.location))).text).toContain('several times in the last hour')
	})

	it('gives no archive to a platform account, nor to a super admin acting as the learner', async () => {
		const me = await person()
		const apex = await stack.signIn('root@platform.test', 'localhost')
		const b = await stack.enter(apex, (await findTenantBySlug(stack.db, 'acme'))!)
		expect((await archive(b)).status).toBe(404)
		expect((await b.post('/api/admin/impersonate/start', { userId: me.id })).status).toBe(303)
		const refused = await archive(b)
		expect(refused.status).toBe(303)
		expect(refused.headers.location).toBe('/learn/account?notice=archive-impersonating')
		// The super admin on the tenant's host may erase a learner of it (the confirmation first).
		expect((await b.post('/api/admin/impersonate/stop', {})).status).toBeLessThan(400)
		const done = await b.post(`/admin/users/${me.id}/erase`, { intent: 'erase', confirmed: 'yes' })
		expect(done.status).toBe(302)
		expect((await findUserById(stack.db, me.id))!.email).toBe(erasedEmail(me.id))
	})

	it('erases a person after a confirmation, leaving no personal value in any table or log line', async () => {
		const victim = await person()
		const bystander = await person(acmeId, { id: victim.id })
		const victimBrowser = await stack.signIn(victim.email)
		const admin = await stack.signIn('admin@acme.test')
		const user = await admin.get(`/admin/users/${victim.id}`)
		expect(user.text).toContain(`href="/admin/users/${victim.id}/erase"`)
		const page = await admin.get(`/admin/users/${victim.id}/erase`)
		expect(page.status).toBe(200)
		expect(page.text).toContain(victim.name)
		// The first post only asks; a GET with the confirmation in its query changes nothing.
		const asked = await admin.post(`/admin/users/${victim.id}/erase`, { intent: 'erase' })
		expect(asked.status).toBe(200)
		expect(asked.text).toContain('cannot be undone')
		expect(asked.text).toContain('name="confirmed" value="yes"')
		expect((await admin.get(`/admin/users/${victim.id}/erase?intent=erase&confirmed=yes`)).status).toBe(200)
		expect((await findUserById(stack.db, victim.id))!.email).toBe(victim.email)
		// Confirmed: erased, with the log captured.
		const lines: string[] = []
		const log = vi.spyOn(console, 'log').mockImplementation((l) => void lines.push(String(l)))
		const err = vi.spyOn(console, 'error').mockImplementation((l) => void lines.push(String(l)))
		const done = await admin.post(`/admin/users/${victim.id}/erase`, { intent: 'erase', confirmed: 'yes' })
		await stack.settled()
		log.mockRestore()
		err.mockRestore()
		expect(done.status).toBe(302)
		expect(done.headers.location).toBe(`/admin/users/${victim.id}/erase?notice=erased`)
		// One message after an erasure (issue 52): the notice, not also "already erased".
		const after = (await admin.get(String(done.headers.location))).text
		expect(after.split('The person was erased.')).toHaveLength(2)
		expect(after).not.toContain('already erased')
		expect((await admin.get(`/admin/users/${victim.id}/erase`)).text).toContain('This person was already erased.')
		const personal = [victim.email, victim.name, victim.formerName, victim.fileBody.slice(0, 30)]
		expect(await findInDatabase(stack.db, personal)).toEqual([])
		expect(lines.some((l) => l.includes('user/erased'))).toBe(true)
		for (const value of personal) expect(lines.join('\n')).not.toContain(value)
		expect((await findInDatabase(stack.db, [bystander.email, bystander.name])).length).toBeGreaterThan(0)
		expect((await findUserById(stack.db, victim.id))!.email).toBe(erasedEmail(victim.id))
		// Their session ended; their password no longer signs in.
		expect((await victimBrowser.get('/learn/dashboard')).status).toBe(302)
		expect(
			(await stack.browser(ACME).post('/learn/sign-in', { email: victim.email, password: DEMO_PASSWORD })).status,
		).toBe(401)
		// Once is all: the page says so, a second post is refused.
		expect((await admin.post(`/admin/users/${victim.id}/erase`, { intent: 'erase', confirmed: 'yes' })).status).toBe(
			409,
		)
		const audit = await stack.db.orm
			.select()
			.from(stack.db.t.audit_log)
			.where(eq(stack.db.t.audit_log.action, 'user.erased'))
		expect(audit.filter((r) => r.target_id === victim.id)).toHaveLength(1)
	})

	it('takes an erased person off the user list and leaves no action on their page (issue 52)', async () => {
		const victim = await person()
		const admin = await stack.signIn('admin@acme.test')
		const link = `href="/admin/users/${victim.id}"`
		expect((await admin.get('/admin/users')).text).toContain(link)
		expect((await admin.get(`/admin/users/${victim.id}`)).text).toContain('value="send-reset"')
		expect((await admin.post(`/admin/users/${victim.id}/erase`, { intent: 'erase', confirmed: 'yes' })).status).toBe(
			302,
		)
		expect((await admin.get('/admin/users')).text).not.toContain(link)
		expect((await admin.get('/admin/users?status=deactivated')).text).not.toContain(link)
		expect((await admin.get('/admin/users?status=erased')).text).toContain(link)
		const page = (await admin.get(`/admin/users/${victim.id}`)).text
		expect(page).toContain('This person was erased: nothing more can be done to their account.')
		for (const intent of ['reactivate', 'change-role', 'send-reset', 'force-sign-out', 'erase'])
			expect(page).not.toContain(`value="${intent}"`)
		// The actions refuse too, and change nothing.
		const before = await findUserById(stack.db, victim.id)
		for (const fields of <Record<string, string>[]>[
			{ intent: 'reactivate' },
			{ intent: 'change-role', role: 'tenant_admin', confirmed: 'yes' },
			{ intent: 'send-reset' },
		]) {
			const refused = await admin.post(`/admin/users/${victim.id}`, fields)
			expect(refused.status, fields.intent).toBe(409)
			expect(refused.text).toContain('nothing more can be done')
		}
		expect(await findUserById(stack.db, victim.id)).toEqual(before)
		expect(before!.deactivated_at).not.toBeNull()
	})

	it('lets only a tenant admin of the person’s tenant erase, never themselves or a platform account', async () => {
		const target = await person()
		const path = `/admin/users/${target.id}/erase`
		const confirmed = { intent: 'erase', confirmed: 'yes' }
		expect((await (await stack.signIn('learner@acme.test')).post(path, confirmed)).status).toBe(403)
		expect((await (await stack.signIn('author@acme.test')).post(path, confirmed)).status).toBe(404)
		// Another tenant's admin on their own host: not their person.
		const globexAdmin = await stack.signIn('admin@globex.test', GLOBEX)
		expect((await globexAdmin.post(path, confirmed)).status).toBe(404)
		const admin = await stack.signIn('admin@acme.test')
		// The acme admin's cookie on globex's host counts for nothing.
		const leftover = stack.browser(GLOBEX)
		for (const [k, v] of admin.jar) leftover.jar.set(k, v)
		expect((await leftover.post(path, confirmed)).status).toBe(302)
		// Another site's form, and odd ids, erase nobody.
		expect((await admin.post(path, confirmed, { origin: 'http://evil.test' })).status).toBe(403)
		for (const id of [target.id.toUpperCase(), `${target.id}%00`, encodeURIComponent(`${target.id}/`), `%2e%2e`])
			expect((await admin.post(`/admin/users/${id}/erase`, confirmed)).status, id).toBeGreaterThanOrEqual(400)
		// Themselves, and the platform account, are refused.
		const self = stack.seeded.users['acme:admin@acme.test']
		expect((await admin.post(`/admin/users/${self.id}/erase`, confirmed)).status).toBe(409)
		const root = stack.seeded.users['platform:root@platform.test']
		expect((await admin.post(`/admin/users/${root.id}/erase`, confirmed)).status).toBe(404)
		expect((await findUserById(stack.db, target.id))!.email).toBe(target.email)
	})

	it('allows ten erasures an hour per admin', async () => {
		const admin = await addPerson(stack.db, {
			tenant_id: acmeId,
			email: `eraser-${dialect}@acme.test`,
			name: 'Eraser',
			role: 'tenant_admin',
		})
		const b = await stack.signIn(admin.email)
		const statuses: number[] = []
		for (let i = 0; i < 11; i++) {
			const u = await createUser(stack.db, {
				tenant_id: acmeId,
				email: `many-${dialect}-${i}@acme.test`,
				name: `Many ${i}`,
				role: 'student',
			})
			statuses.push((await b.post(`/admin/users/${u.id}/erase`, { intent: 'erase', confirmed: 'yes' })).status)
		}
		expect(statuses).toEqual([...Array(10).fill(302), 429])
	})
})

/**
 * Issue 52: a tenant admin makes a person's data archive for them (decision 0063): the same zip the
 * person downloads themselves, recorded in the audit log and told to the person by mail; only an
 * admin of the person's tenant, on its host, by POST; 20 an hour per admin.
 */
import { strFromU8, unzipSync } from 'fflate'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { plantPerson } from '#tests/support/person-data.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'

describe.each(DIALECTS)('a person’s archive made by an admin on %s', (dialect) => {
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

	const person = async (tenantId = acmeId) => {
		const p = await plantPerson(stack.db, tenantId, `pa-${dialect}-${++n}`)
		await updateUser(stack.db, p.id, {
			password_hash: await hashPassword(DEMO_PASSWORD),
			email_verified_at: new Date(),
		})
		return p
	}
	const audited = async (userId: string) =>
		(
			await stack.db.orm
				.select()
				.from(stack.db.t.audit_log)
				.where(and(eq(stack.db.t.audit_log.action, 'user.data_exported'), eq(stack.db.t.audit_log.target_id, userId)))
		).length
	const path = (id: string) => `/admin/users/${id}/data`

	it('gives the tenant admin the person’s own archive, audited, and tells the person by mail', async () => {
		const me = await person()
		const other = await person()
		const admin = await stack.signIn('admin@acme.test')
		const page = await admin.get(`/admin/users/${me.id}`)
		expect(page.text).toContain(`action="${path(me.id)}"`)
		const res = await admin.post(path(me.id), {})
		expect(res.status).toBe(200)
		expect(res.headers['content-type']).toBe('application/zip')
		expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="acme-my-data-[\d-]+\.zip"$/)
		expect(res.headers['cache-control']).toBe('private, no-store')
		const entries = unzipSync(new Uint8Array(res.body))
		const users = JSON.parse(strFromU8(entries['tables/users.json']))
		expect(users).toEqual([expect.objectContaining({ id: me.id, email: me.email })])
		const all = Object.values(entries)
			.map((e) => Buffer.from(e).toString())
			.join('\n')
		for (const foreign of [other.email, other.name, 'password_hash', 'token_hash']) expect(all).not.toContain(foreign)
		expect(await audited(me.id)).toBe(1)
		await stack.settled()
		// The fixture queues a magic link to the person too: the archive's own mail, by its subject.
		const mail = stack.mail.messages.find(
			(m) => m.to === me.email && /^A copy of your data was made · /.test(m.subject),
		)
		expect(mail?.text).toMatch(/\/learn\/account\b/)
	})

	it('refuses everyone else, every other method and spelling, and records nothing then', async () => {
		const me = await person()
		const refused: Array<[string, number]> = []
		const tryAs = async (
			label: string,
			b: ReturnType<Stack['browser']>,
			p = path(me.id),
			headers?: Record<string, string>,
		) => {
			const res = await b.post(p, {}, headers)
			refused.push([label, res.status])
		}
		await tryAs('visitor', stack.browser(ACME))
		await tryAs('learner', await stack.signIn('learner@acme.test'))
		await tryAs('course admin', await stack.signIn('author@acme.test'))
		await tryAs('other tenant’s admin', await stack.signIn('admin@globex.test', GLOBEX))
		const admin = await stack.signIn('admin@acme.test')
		// Its cookie on another tenant's host counts for nothing there.
		const leftover = stack.browser(GLOBEX)
		for (const [k, v] of admin.jar) leftover.jar.set(k, v)
		await tryAs('acme cookie on globex', leftover)
		await tryAs('another site’s form', admin, path(me.id), { origin: 'http://evil.test' })
		for (const id of [me.id.toUpperCase(), `${me.id}%00`, `${me.id}%2F`, '%2e%2e', 'nobody'])
			await tryAs(`id ${id}`, admin, path(id))
		const root = stack.seeded.users['platform:root@platform.test']
		await tryAs('platform account', admin, path(root.id))
		const globexPerson = await person(globexId)
		await tryAs('globex person from acme', admin, path(globexPerson.id))
		const superAdmin = await stack.signIn('root@platform.test', 'localhost')
		await tryAs('super admin on the apex', superAdmin)
		expect(refused.filter(([, s]) => s === 200)).toEqual([])
		for (const [label, status] of refused) expect(status, label).toBeGreaterThanOrEqual(302)
		// A GET leads back to the page and gives nothing.
		const get = await admin.get(path(me.id))
		expect(get.status).toBe(302)
		expect(get.headers.location).toBe(`/admin/users/${me.id}`)
		expect(await audited(me.id)).toBe(0)
		await stack.settled()
		expect(stack.mail.messages.filter((m) => m.to === me.email && /copy of your data/.test(m.subject))).toEqual([])
	})

	it('makes 20 an hour per admin, then says so on the person’s page', async () => {
		const admin = await addPerson(stack.db, {
			tenant_id: acmeId,
			email: `archive-admin-${dialect}@acme.test`,
			name: 'Archive Admin',
			role: 'tenant_admin',
		})
		const b = await stack.signIn(admin.email)
		const me = await person()
		for (let i = 0; i < 20; i++) expect((await b.post(path(me.id), {})).status).toBe(200)
		const limited = await b.post(path(me.id), {})
		expect(limited.status).toBe(303)
		expect(limited.headers.location).toBe(`/admin/users/${me.id}?notice=person-archive-limited`)
		expect((await b.get(String(limited.headers.location))).text).toContain('copies of people’s data in the last hour')
		expect(await audited(me.id)).toBe(20)
	})
})

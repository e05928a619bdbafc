/**
 * SCIM 2.0 provisioning (issue 48, decision 0070), spoken as Microsoft Entra ID and Okta speak it:
 * create, find by userName, PATCH active=false in both spellings (sessions end at once), PUT,
 * DELETE = deactivate, and groups mapped by the tenant admin to an enrollment or a role.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserById, updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import {
	createScimToken,
	ENTERPRISE,
	entraUser,
	filterUserName,
	GROUP,
	oktaUser,
	PATCH_OP,
	scimClient,
	USER,
	type ScimClient,
} from '#tests/support/scim.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

describe.each(DIALECTS)('SCIM provisioning on %s', (dialect) => {
	let stack: Stack
	let scim: ScimClient
	let raw: string
	const acme = () => stack.seeded.tenants.acme.id
	beforeAll(async () => {
		stack = await startStack(dialect)
		raw = (await createScimToken(stack, 'admin@acme.test', 'acme.localhost')).token
		scim = scimClient(stack, 'acme.localhost', raw)
	})
	afterAll(() => stack?.close())

	const userIdOf = async (email: string) => {
		const found = await scim.get(filterUserName(email))
		expect(found.status).toBe(200)
		expect(found.data!.totalResults).toBe(1)
		return found.data!.Resources[0].id as string
	}
	const auditRows = async (action: string) =>
		(await stack.db.orm.select().from(stack.db.t.audit_log)).filter(
			(r) => r.action === action && r.tenant_id === acme(),
		)

	it('stores the token hashed and never audits it', async () => {
		const rows = await stack.db.orm.select().from(stack.db.t.scim_tokens)
		expect(rows).toHaveLength(1)
		expect(rows[0]!.token_hash).not.toContain(raw.slice(5, 20))
		const all = JSON.stringify(await stack.db.orm.select().from(stack.db.t.audit_log))
		expect(all).not.toContain(raw)
		expect(await auditRows('scim.token_created')).toHaveLength(1)
	})

	it('answers the discovery resources', async () => {
		const config = await scim.get('/ServiceProviderConfig')
		expect(config.status).toBe(200)
		expect(config.headers['content-type']).toContain('application/scim+json')
		expect(config.data).toMatchObject({ patch: { supported: true }, bulk: { supported: false } })
		expect((await scim.get('/ResourceTypes')).data!.Resources.map((r: { id: string }) => r.id)).toEqual([
			'User',
			'Group',
		])
		expect((await scim.get('/Schemas')).data!.totalResults).toBe(2)
		expect((await scim.get(`/Schemas/${USER}`)).data!.name).toBe('User')
	})

	it('provisions a user as Entra ID does: find, create, 409 again, PATCH with Entra’s spellings', async () => {
		const email = 'emma.entra@acme.test'
		const none = await scim.get(filterUserName(email))
		expect(none.data).toMatchObject({ totalResults: 0, Resources: [] })
		const created = await scim.post('/Users', entraUser(email, 'entra-object-1'))
		expect(created.status).toBe(201)
		expect(created.data).toMatchObject({
			userName: email,
			active: true,
			externalId: 'entra-object-1',
			displayName: 'Emma Entra',
		})
		const again = await scim.post('/Users', entraUser(email, 'entra-object-2'))
		expect(again.status).toBe(409)
		expect(again.data).toMatchObject({
			schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
			status: '409',
			scimType: 'uniqueness',
		})
		const id = await userIdOf(email)
		expect(id).toBe(created.data!.id)
		const user = await findUserById(stack.db, id)
		expect(user).toMatchObject({ tenant_id: acme(), role: 'student', name: 'Emma Entra' })
		expect(user?.email_verified_at).not.toBeNull()
		// Entra ID's PATCH: capitalised ops, string booleans, attribute paths.
		const renamed = await scim.patch(`/Users/${id}`, {
			schemas: [PATCH_OP],
			Operations: [
				{ op: 'Replace', path: 'displayName', value: 'Emma E. Entra' },
				{ op: 'Add', path: 'externalId', value: 'entra-object-1' },
			],
		})
		expect(renamed.status).toBe(200)
		expect(renamed.data!.displayName).toBe('Emma E. Entra')
		const byExternal = await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "entra-object-1"')}`)
		expect(byExternal.data!.Resources.map((r: { id: string }) => r.id)).toEqual([id])
		expect(await auditRows('scim.user_created')).toHaveLength(1)
	})

	it('deactivates with Entra’s {"op":"Replace","path":"active","value":"False"}: the session ends at once', async () => {
		const learner = await stack.signIn('learner@acme.test')
		expect((await learner.get('/learn/dashboard')).status).toBe(200)
		const id = await userIdOf('learner@acme.test')
		const before = await findUserById(stack.db, id)
		const res = await scim.patch(`/Users/${id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
		})
		expect(res.status).toBe(200)
		expect(res.data!.active).toBe(false)
		const after = await findUserById(stack.db, id)
		expect(after?.deactivated_at).not.toBeNull()
		expect(after!.token_version).toBe(before!.token_version + 1)
		// The learner's next request no longer has a session.
		const next = await learner.get('/learn/dashboard')
		expect(next.status).toBe(302)
		expect(String(next.headers.location)).toContain('/learn/sign-in')
		// The admin's own deactivation wrote its row, naming the token.
		const rows = (await auditRows('user.deactivated')).filter((r) => r.target_id === id)
		expect(rows).toHaveLength(1)
		expect(rows[0]!.metadata).toMatchObject({ via: 'scim', viaId: expect.any(String) })
		// Reactivated with a string "True", as Entra sends it.
		const back = await scim.patch(`/Users/${id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
		})
		expect(back.data!.active).toBe(true)
		expect((await findUserById(stack.db, id))?.deactivated_at).toBeNull()
	})

	it('deactivates with Okta’s {"op":"replace","value":{"active":false}}, replaces with PUT, deletes', async () => {
		const email = 'otto.okta@acme.test'
		const created = await scim.post('/Users', oktaUser(email))
		expect(created.status).toBe(201)
		const id = created.data!.id as string
		const okta = await scim.patch(`/Users/${id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'replace', value: { id, active: false } }],
		})
		expect(okta.status).toBe(200)
		expect(okta.data!.active).toBe(false)
		expect((await findUserById(stack.db, id))?.deactivated_at).not.toBeNull()
		// Okta's PUT sends the whole user: active again, a new name and address.
		const put = await scim.put(`/Users/${id}`, {
			...oktaUser('otto.o@acme.test'),
			id,
			name: { givenName: 'Otto', familyName: 'Okta-Smith' },
			displayName: 'Otto Okta-Smith',
		})
		expect(put.status).toBe(200)
		expect(put.data).toMatchObject({ userName: 'otto.o@acme.test', active: true, displayName: 'Otto Okta-Smith' })
		// A PUT to another person's address is 409 and changes nothing.
		const clash = await scim.put(`/Users/${id}`, { ...oktaUser('learner@acme.test'), id })
		expect(clash.status).toBe(409)
		expect((await findUserById(stack.db, id))?.email).toBe('otto.o@acme.test')
		const deleted = await scim.delete(`/Users/${id}`)
		expect(deleted.status).toBe(204)
		const gone = await findUserById(stack.db, id)
		expect(gone?.deactivated_at).not.toBeNull()
		expect((await scim.get(`/Users/${id}`)).data!.active).toBe(false)
	})

	it('pages lists with startIndex and a bounded count', async () => {
		const all = await scim.get('/Users?count=1000')
		expect(all.data!.itemsPerPage).toBeLessThanOrEqual(100)
		const total = all.data!.totalResults as number
		expect(total).toBeGreaterThan(3)
		const second = await scim.get('/Users?startIndex=2&count=1')
		expect(second.data).toMatchObject({ startIndex: 2, itemsPerPage: 1, totalResults: total })
		expect(second.data!.Resources[0].id).toBe(all.data!.Resources[1].id)
	})

	it('maps groups to an enrollment and a role as the admin chose, members added and removed as Entra and Okta send them', async () => {
		const { browser: admin } = await createScimToken(stack, 'admin@acme.test', 'acme.localhost', 'Okta')
		expect(
			(
				await admin.post('/admin/settings/scim', {
					intent: 'add-mapping',
					group: 'Web learners',
					target: 'enrollment',
					course: 'intro-to-web',
				})
			).status,
		).toBe(302)
		expect(
			(
				await admin.post('/admin/settings/scim', {
					intent: 'add-mapping',
					group: 'School admins',
					target: 'tenant_admin',
					course: '',
				})
			).status,
		).toBe(302)
		const newbie = await userIdOf('newbie@acme.test')
		const enrollment = async () => {
			const e = stack.db.t.enrollments
			const [row] = await stack.db.orm
				.select()
				.from(e)
				.where(and(eq(e.user_id, newbie), eq(e.course_slug, 'intro-to-web')))
			return row?.status ?? null
		}
		expect(await enrollment()).toBeNull()
		const group = await scim.post('/Groups', {
			schemas: [GROUP],
			displayName: 'Web learners',
			members: [{ value: newbie }],
		})
		expect(group.status).toBe(201)
		expect(group.data!.members.map((m: { value: string }) => m.value)).toEqual([newbie])
		expect(await enrollment()).toBe('active')
		// Entra ID removes a member by a filtered path.
		const removed = await scim.patch(`/Groups/${group.data!.id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'Remove', path: `members[value eq "${newbie}"]` }],
		})
		expect(removed.status).toBe(200)
		expect(removed.data!.members).toEqual([])
		expect(await enrollment()).toBe('cancelled')
		// Okta adds one with a value list.
		const added = await scim.patch(`/Groups/${group.data!.id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'add', path: 'members', value: [{ value: newbie, display: 'newbie@acme.test' }] }],
		})
		expect(added.status).toBe(200)
		expect(await enrollment()).toBe('active')
		const found = await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "Web learners"')}`)
		expect(found.data!.totalResults).toBe(1)

		// The role group: joining makes a tenant admin, leaving takes it back (sessions re-checked by token_version).
		const admins = await scim.post('/Groups', { schemas: [GROUP], displayName: 'School admins', members: [] })
		expect(admins.status).toBe(201)
		await scim.patch(`/Groups/${admins.data!.id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'Add', path: 'members', value: [{ value: newbie }] }],
		})
		expect((await findUserById(stack.db, newbie))?.role).toBe('tenant_admin')
		expect(await auditRows('user.role_changed')).toHaveLength(1)
		const deleted = await scim.delete(`/Groups/${admins.data!.id}`)
		expect(deleted.status).toBe(204)
		expect((await findUserById(stack.db, newbie))?.role).toBe('student')
		expect((await scim.get(`/Groups/${admins.data!.id}`)).status).toBe(404)
		expect(await auditRows('scim.group_deleted')).toHaveLength(1)
		// A group of a name that exists is 409.
		expect((await scim.post('/Groups', { schemas: [GROUP], displayName: 'Web learners' })).status).toBe(409)
	})

	it('gives a course-admin group’s role and course, and takes back only that role', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const mapping = { intent: 'add-mapping', group: 'Course staff', target: 'course_admin', course: 'intro-to-web' }
		expect((await admin.post('/admin/settings/scim', mapping)).status).toBe(302)
		const staff = (await scim.post('/Users', oktaUser('staff.member@acme.test'))).data!.id as string
		const boss = (await scim.post('/Users', entraUser('hand.made@acme.test', 'hand-made'))).data!.id as string
		// A tenant admin made by hand, not by a group.
		await updateUser(stack.db, boss, { role: 'tenant_admin' })
		const group = await scim.post('/Groups', {
			schemas: [GROUP],
			displayName: 'Course staff',
			members: [{ value: staff }, { value: boss }],
		})
		expect(group.status).toBe(201)
		expect((await findUserById(stack.db, staff))?.role).toBe('course_admin')
		const assigned = await stack.db.orm
			.select()
			.from(stack.db.t.course_admin_assignments)
			.where(eq(stack.db.t.course_admin_assignments.user_id, staff))
		expect(assigned.map((a) => a.course_slug)).toEqual(['intro-to-web'])
		expect((await findUserById(stack.db, boss))?.role).toBe('tenant_admin')
		const left = await scim.patch(`/Groups/${group.data!.id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'remove', path: 'members', value: [{ value: staff }, { value: boss }] }],
		})
		expect(left.status).toBe(200)
		expect((await findUserById(stack.db, staff))?.role).toBe('student')
		// The role given by hand stays when the person leaves a group that did not give it.
		expect((await findUserById(stack.db, boss))?.role).toBe('tenant_admin')
	})

	it('accepts the enterprise extension but no other schema', async () => {
		const res = await scim.post('/Users', { ...entraUser('x.y@acme.test', 'x-1'), schemas: [USER, ENTERPRISE] })
		expect(res.status).toBe(201)
	})
})

describe.each(DIALECTS)('the SCIM settings page on %s', (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(() => stack?.close())

	it('shows a new token once, lists it without it, revokes it; errors beside their fields; tenant admins only', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const empty = await admin.post('/admin/settings/scim', { intent: 'create-token', label: '' })
		expect(empty.status).toBe(400)
		expect(empty.text).toContain('aria-invalid="true"')
		const { token } = await createScimToken(stack, 'admin@acme.test', 'acme.localhost', 'Okta prod')
		const page = await admin.get('/admin/settings/scim')
		expect(page.status).toBe(200)
		expect(page.text).toContain('Okta prod')
		expect(page.text).not.toContain(token)
		expect(page.text).toContain('/scim/v2')
		const mapping = { intent: 'add-mapping', group: 'Dup', target: 'enrollment', course: 'intro-to-web' }
		expect((await admin.post('/admin/settings/scim', mapping)).status).toBe(302)
		const again = await admin.post('/admin/settings/scim', mapping)
		expect(again.status).toBe(409)
		expect(again.text).toContain('aria-invalid="true"')
		const noCourse = await admin.post('/admin/settings/scim', { ...mapping, group: 'Other', course: 'no-such-course' })
		expect(noCourse.status).toBe(400)
		const [row] = await stack.db.orm.select().from(stack.db.t.scim_tokens)
		const revoked = await admin.post('/admin/settings/scim', { intent: 'revoke-token', id: row!.id })
		expect(revoked.status).toBe(302)
		expect((await scimClient(stack, 'acme.localhost', token).get('/Users')).status).toBe(401)
		expect((await admin.post('/admin/settings/scim', { intent: 'revoke-token', id: row!.id })).status).toBe(404)
		const learner = await stack.signIn('learner@acme.test')
		expect((await learner.get('/admin/settings/scim')).status).toBe(403)
		const author = await stack.signIn('author@acme.test')
		expect((await author.post('/admin/settings/scim', { intent: 'create-token', label: 'x' })).status).toBe(404)
		expect((await stack.db.orm.select().from(stack.db.t.scim_tokens)).length).toBe(1)
	})

	it('stops a token whose maker is no longer a tenant admin', async () => {
		const { token } = await createScimToken(stack, 'admin@acme.test', 'acme.localhost', 'Maker leaves')
		const client = scimClient(stack, 'acme.localhost', token)
		expect((await client.get('/Users')).status).toBe(200)
		const admin = await findUserById(
			stack.db,
			(await stack.db.orm.select().from(stack.db.t.scim_tokens)).at(-1)!.created_by,
		)
		await stack.db.orm.update(stack.db.t.users).set({ role: 'student' }).where(eq(stack.db.t.users.id, admin!.id))
		expect((await client.get('/Users')).status).toBe(401)
		await stack.db.orm.update(stack.db.t.users).set({ role: 'tenant_admin' }).where(eq(stack.db.t.users.id, admin!.id))
	})
})

/**
 * Hostile class: SCIM provisioning (issue 48, decision 0070). Each request here is one an attacker,
 * a misconfigured identity provider or a confused client could send: another tenant's token on
 * this host, a revoked or malformed token, a token in the URL, unknown schemas, a userName that
 * exists, huge lists and bodies, filters the service does not speak, methods a path does not take.
 * Each is refused with its status in SCIM's error shape, and nothing is written (the tables SCIM
 * can change are the same, row for row, before and after).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import {
	createScimToken,
	entraUser,
	filterUserName,
	GROUP,
	PATCH_OP,
	scimClient,
	USER,
	type ScimClient,
} from '#tests/support/scim.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass, type HostileClass } from './support.ts'

const ACME = 'acme.localhost'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

describe.each(DIALECTS)('hostile SCIM requests on %s', (dialect) => {
	let stack: Stack
	let acme: ScimClient
	let acmeToken: string
	let globexToken: string
	let revokedToken: string
	let learnerId: string
	let globexLearnerId: string
	let groupId: string
	const classes: HostileClass[] = []
	const hostile = (name: string) => {
		const c = hostileClass(`scim-${name}`, dialect)
		classes.push(c)
		return c
	}

	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeToken = (await createScimToken(stack, 'admin@acme.test', ACME)).token
		globexToken = (await createScimToken(stack, 'admin@globex.test', 'globex.localhost')).token
		const revoked = await createScimToken(stack, 'admin@acme.test', ACME, 'Old')
		revokedToken = revoked.token
		const [row] = (await stack.db.orm.select().from(stack.db.t.scim_tokens)).filter((t) => t.label === 'Old')
		expect((await revoked.browser.post('/admin/settings/scim', { intent: 'revoke-token', id: row!.id })).status).toBe(
			302,
		)
		acme = scimClient(stack, ACME, acmeToken)
		learnerId = (await findUserByEmail(stack.db, stack.seeded.tenants.acme.id, 'learner@acme.test'))!.id
		globexLearnerId = (await findUserByEmail(stack.db, stack.seeded.tenants.globex.id, 'learner@globex.test'))!.id
		const group = await acme.post('/Groups', { schemas: [GROUP], displayName: 'Existing', members: [] })
		groupId = group.data!.id
	})
	afterAll(async () => {
		for (const c of classes) c.report()
		await stack?.close()
	})

	/** Every row SCIM could write, in a stable order (the tokens without last_used_at, which a good request touches). */
	async function snapshot() {
		const t = stack.db.t
		const rows = await Promise.all([
			stack.db.orm.select().from(t.users),
			stack.db.orm.select().from(t.scim_users),
			stack.db.orm.select().from(t.scim_groups),
			stack.db.orm.select().from(t.scim_group_members),
			stack.db.orm.select().from(t.enrollments),
			stack.db.orm.select().from(t.audit_log),
			stack.db.orm.select().from(t.course_admin_assignments),
			stack.db.orm.select().from(t.scim_group_mappings),
			stack.db.orm
				.select()
				.from(t.scim_tokens)
				.then((r) => r.map(({ last_used_at: _, ...rest }) => rest)),
		])
		return JSON.stringify(rows.map((table) => table.map((r) => JSON.stringify(r)).sort()))
	}

	/** One case: the status expected, SCIM's error shape (for a refusal), and nothing written. */
	async function refused(
		c: HostileClass,
		label: string,
		send: () => Promise<{ status: number; headers: Record<string, unknown>; text: string }>,
		status: number,
	) {
		const before = await snapshot()
		const res = await send()
		c.check(`${label}: status`, res.status === status, `answered ${res.status}: ${res.text.slice(0, 200)}`)
		const shaped =
			res.status < 400 ||
			(String(res.headers['content-type']).startsWith('application/scim+json') &&
				(() => {
					try {
						const body = JSON.parse(res.text)
						return body.schemas?.[0] === ERROR && body.status === String(res.status)
					} catch {
						return false
					}
				})())
		c.check(`${label}: SCIM error shape`, shaped, res.text.slice(0, 200))
		c.check(`${label}: nothing written`, (await snapshot()) === before)
	}

	const newUser = (n: string) => entraUser(`hostile-${n}@acme.test`, `hostile-${n}`)

	it('refuses another tenant’s token on this host, and this tenant’s token elsewhere', async () => {
		const c = hostile('cross-tenant')
		const globexOnAcme = scimClient(stack, ACME, globexToken)
		await refused(c, 'globex token lists acme', () => globexOnAcme.get('/Users'), 401)
		await refused(c, 'globex token creates on acme', () => globexOnAcme.post('/Users', newUser('x1')), 401)
		await refused(c, 'globex token deactivates acme', () => globexOnAcme.delete(`/Users/${learnerId}`), 401)
		const acmeOnGlobex = scimClient(stack, 'globex.localhost', acmeToken)
		await refused(c, 'acme token on globex', () => acmeOnGlobex.post('/Users', newUser('x2')), 401)
		await refused(c, 'acme token on the apex', () => scimClient(stack, 'localhost', acmeToken).get('/Users'), 404)
		// This tenant's token naming the other tenant's user or group: not found here.
		await refused(c, 'globex user by id', () => acme.get(`/Users/${globexLearnerId}`), 404)
		await refused(
			c,
			'globex user patched',
			() =>
				acme.patch(`/Users/${globexLearnerId}`, {
					schemas: [PATCH_OP],
					Operations: [{ op: 'replace', value: { active: false } }],
				}),
			404,
		)
		await refused(c, 'globex user deleted', () => acme.delete(`/Users/${globexLearnerId}`), 404)
		await refused(
			c,
			'globex user as a member',
			() => acme.post('/Groups', { schemas: [GROUP], displayName: 'Mixed', members: [{ value: globexLearnerId }] }),
			400,
		)
		const found = await acme.get(filterUserName('learner@globex.test'))
		c.check('globex address not found by filter', found.status === 200 && found.data!.totalResults === 0)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses revoked, malformed and misplaced tokens', async () => {
		const c = hostile('tokens')
		const withAuth = (authorization: string) => () =>
			stack.request(ACME, '/scim/v2/Users', {
				method: 'POST',
				headers: { authorization, 'content-type': 'application/scim+json' },
				body: JSON.stringify(newUser('t')),
			})
		await refused(c, 'revoked', () => scimClient(stack, ACME, revokedToken).post('/Users', newUser('t0')), 401)
		for (const [label, header] of [
			['none', ''],
			['basic', `Basic ${Buffer.from(`x:${acmeToken}`).toString('base64')}`],
			['bare token', acmeToken],
			['truncated', `Bearer ${acmeToken.slice(0, -1)}`],
			['extended', `Bearer ${acmeToken}x`],
			['two tokens', `Bearer ${acmeToken} ${acmeToken}`],
			['hash of it', `Bearer scim_${'a'.repeat(43)}`],
		] as const)
			await refused(c, `malformed: ${label}`, withAuth(header), 401)
		// The token in the URL (logs, proxies, Referer) is refused even with a good header too.
		for (const param of ['access_token', 'token'])
			await refused(
				c,
				`?${param}=`,
				() =>
					stack.request(ACME, `/scim/v2/Users?${param}=${acmeToken}`, {
						method: 'POST',
						headers: { 'content-type': 'application/scim+json' },
						body: JSON.stringify(newUser('q')),
					}),
				401,
			)
		await refused(
			c,
			'in the URL and the header',
			() => acme.call('POST', `/Users?access_token=${acmeToken}`, newUser('q2')),
			401,
		)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses unknown and missing schemas', async () => {
		const c = hostile('schemas')
		await refused(
			c,
			'unknown extra schema',
			() => acme.post('/Users', { ...newUser('s1'), schemas: [USER, 'urn:evil:schema'] }),
			400,
		)
		await refused(c, 'no schemas', () => acme.post('/Users', { ...newUser('s2'), schemas: undefined }), 400)
		await refused(c, 'group schema on Users', () => acme.post('/Users', { ...newUser('s3'), schemas: [GROUP] }), 400)
		await refused(c, 'schemas not a list', () => acme.post('/Users', { ...newUser('s4'), schemas: USER }), 400)
		await refused(c, 'user schema on Groups', () => acme.post('/Groups', { schemas: [USER], displayName: 'G' }), 400)
		await refused(
			c,
			'PATCH without PatchOp',
			() =>
				acme.patch(`/Users/${learnerId}`, {
					schemas: [USER],
					Operations: [{ op: 'replace', value: { active: false } }],
				}),
			400,
		)
		await refused(
			c,
			'PATCH unknown op',
			() =>
				acme.patch(`/Users/${learnerId}`, {
					schemas: [PATCH_OP],
					Operations: [{ op: 'merge', value: { active: false } }],
				}),
			400,
		)
		await refused(
			c,
			// The second operation alone would deactivate: a bad first one refuses the whole PATCH.
			'PATCH with a remove without a path',
			() =>
				acme.patch(`/Users/${learnerId}`, {
					schemas: [PATCH_OP],
					Operations: [{ op: 'remove' }, { op: 'replace', path: 'active', value: false }],
				}),
			400,
		)
		await refused(
			c,
			'PATCH active to a word',
			() =>
				acme.patch(`/Users/${learnerId}`, {
					schemas: [PATCH_OP],
					Operations: [{ op: 'Replace', path: 'active', value: 'Nope' }],
				}),
			400,
		)
		await refused(
			c,
			'userName not an address',
			() => acme.post('/Users', { ...newUser('s5'), userName: 'not-an-address' }),
			400,
		)
		await refused(
			c,
			'PATCH with a malformed path',
			() =>
				acme.patch(`/Users/${learnerId}`, {
					schemas: [PATCH_OP],
					Operations: [
						{ op: 'replace', path: 'emails[type eq', value: 'x' },
						{ op: 'replace', path: 'active', value: false },
					],
				}),
			400,
		)
		await refused(c, 'not JSON', () => acme.call('POST', '/Users', '{"schemas":'), 400)
		await refused(c, 'a JSON list', () => acme.call('POST', '/Users', '[]'), 400)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses a userName or externalId that exists, in any case', async () => {
		const c = hostile('uniqueness')
		await refused(c, 'existing address', () => acme.post('/Users', entraUser('learner@acme.test', 'u1')), 409)
		await refused(
			c,
			'existing address in capitals',
			() => acme.post('/Users', entraUser('LEARNER@ACME.TEST', 'u2')),
			409,
		)
		const made = await acme.post('/Users', entraUser('unique-1@acme.test', 'dup-ext'))
		expect(made.status).toBe(201)
		await refused(c, 'existing externalId', () => acme.post('/Users', entraUser('unique-2@acme.test', 'dup-ext')), 409)
		await refused(
			c,
			'PUT onto another’s address',
			() => acme.put(`/Users/${made.data!.id}`, entraUser('learner@acme.test', 'dup-ext')),
			409,
		)
		await refused(
			c,
			'existing group name',
			() => acme.post('/Groups', { schemas: [GROUP], displayName: 'Existing' }),
			409,
		)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses huge lists and bodies, and bounds a huge count', async () => {
		const c = hostile('sizes')
		const members = Array.from({ length: 1001 }, (_, i) => ({ value: `member-${i}` }))
		await refused(
			c,
			'1001 members on create',
			() => acme.post('/Groups', { schemas: [GROUP], displayName: 'Huge', members }),
			400,
		)
		await refused(
			c,
			'1001 members on PUT',
			() => acme.put(`/Groups/${groupId}`, { schemas: [GROUP], displayName: 'Existing', members }),
			400,
		)
		await refused(
			c,
			'1001 members by PATCH',
			() =>
				acme.patch(`/Groups/${groupId}`, {
					schemas: [PATCH_OP],
					Operations: [{ op: 'add', path: 'members', value: members }],
				}),
			400,
		)
		const ops = Array.from({ length: 101 }, () => ({ op: 'replace', path: 'displayName', value: 'x' }))
		await refused(
			c,
			'101 operations',
			() => acme.patch(`/Users/${learnerId}`, { schemas: [PATCH_OP], Operations: ops }),
			400,
		)
		await refused(
			c,
			'100 KiB body',
			() => acme.post('/Users', { ...newUser('big'), displayName: 'x'.repeat(100 * 1024) }),
			413,
		)
		await refused(
			c,
			'a 300-character name',
			() => acme.post('/Users', { ...newUser('long'), displayName: 'x'.repeat(300) }),
			400,
		)
		const big = await acme.get('/Users?count=100000')
		c.check('count bounded', big.status === 200 && big.data!.itemsPerPage <= 100)
		await refused(c, 'count not a number', () => acme.get('/Users?count=1e9'), 400)
		await refused(c, 'startIndex twice', () => acme.get('/Users?startIndex=1&startIndex=2'), 400)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses filters it does not speak', async () => {
		const c = hostile('filters')
		for (const filter of [
			'userName co "learner"',
			'userName eq learner@acme.test',
			'userName eq "learner@acme.test" or userName pr',
			'emails[value eq "learner@acme.test"]',
			'password eq "x"',
			'userName eq "unterminated',
			'userName eq "a\\"',
			`userName eq "${'a'.repeat(600)}"`,
			'',
			'displayName eq "Existing"',
		])
			await refused(
				c,
				`filter ${filter.slice(0, 40)}`,
				() => acme.get(`/Users?filter=${encodeURIComponent(filter)}`),
				400,
			)
		await refused(
			c,
			'userName filter on Groups',
			() => acme.get(`/Groups?filter=${encodeURIComponent('userName eq "x"')}`),
			400,
		)
		expect(c.newFailures()).toEqual([])
	})

	it('refuses methods a path does not take, and bodies that are not SCIM', async () => {
		const c = hostile('methods')
		await refused(c, 'POST to a user', () => acme.post(`/Users/${learnerId}`, newUser('m1')), 405)
		await refused(c, 'PUT to the collection', () => acme.put('/Users', newUser('m2')), 405)
		await refused(c, 'DELETE the collection', () => acme.delete('/Users'), 405)
		await refused(c, 'PATCH the collection', () => acme.patch('/Groups', { schemas: [PATCH_OP], Operations: [] }), 405)
		await refused(c, 'POST to discovery', () => acme.post('/ServiceProviderConfig', {}), 405)
		await refused(c, 'DELETE a schema', () => acme.delete(`/Schemas/${USER}`), 405)
		await refused(c, 'unknown endpoint', () => acme.get('/Bulk'), 404)
		await refused(c, 'unknown nested path', () => acme.get(`/Users/${learnerId}/groups`), 404)
		// A GET whose query looks like a change is a read.
		await refused(c, 'GET with a change in its query', () => acme.call('GET', `/Users/${learnerId}?active=false`), 200)
		await refused(
			c,
			'a form body',
			() =>
				acme.call('POST', '/Users', 'userName=x%40acme.test', { 'content-type': 'application/x-www-form-urlencoded' }),
			400,
		)
		await refused(
			c,
			'text/plain body',
			() =>
				acme.call(
					'PATCH',
					`/Users/${learnerId}`,
					JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] }),
					{ 'content-type': 'text/plain' },
				),
			400,
		)
		expect(c.newFailures()).toEqual([])
	})

	it('never makes a super_admin, whatever the body says', async () => {
		const c = hostile('roles')
		const res = await acme.post('/Users', {
			...newUser('root'),
			roles: [{ value: 'super_admin', primary: true }],
			role: 'super_admin',
		})
		c.check('created as a student', res.status === 201)
		const made = await findUserByEmail(stack.db, stack.seeded.tenants.acme.id, 'hostile-root@acme.test')
		c.check('role is student', made?.role === 'student', made?.role)
		await acme.patch(`/Users/${made!.id}`, {
			schemas: [PATCH_OP],
			Operations: [{ op: 'add', path: 'roles', value: [{ value: 'super_admin' }] }],
		})
		c.check(
			'still a student after a roles PATCH',
			(await findUserByEmail(stack.db, stack.seeded.tenants.acme.id, 'hostile-root@acme.test'))?.role === 'student',
		)
		const admin = await stack.signIn('admin@acme.test')
		const before = await snapshot()
		const mapping = await admin.post('/admin/settings/scim', {
			intent: 'add-mapping',
			group: 'Roots',
			target: 'super_admin',
			course: '',
		})
		c.check('a super_admin mapping is refused', mapping.status === 400, String(mapping.status))
		c.check('and writes nothing', (await snapshot()) === before)
		expect(c.newFailures()).toEqual([])
	})
})

/**
 * Hostile class: authority that outlives the person who delegated it (issue 36, item 2). An admin
 * demoted to student (or deactivated) still had their pending invitations, and accepting one made
 * a tenant_admin for seven days after the demotion: acceptance never re-checked the inviter. Here
 * each thing an admin or super admin starts that completes later is completed after its author lost
 * the right to do it: invitations to every role after a demotion, a deactivation, the tenant's
 * suspension, a demotion written straight to the database (so only the check at acceptance stands
 * between it and a new admin), an inviter of another tenant or none, a course that may no longer be
 * granted; and the tenant-override link after its super admin signed out everywhere. None may take
 * effect; the withdrawn invitations leave the pending list with an audit row each. The same things
 * done by someone who still may are accepted.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { mintConsumedTokenProof } from '#app/accounts/auth.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, updateUser, upsertUser, type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { createInvitation } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const APEX = 'localhost'
type InvitedRole = 'student' | 'course_admin' | 'tenant_admin'

describe.each(DIALECTS)('hostile delegated authority on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globexAdmin: User
	let root: User
	let boss: Browser
	let passwordHash: string
	const hostile = hostileClass('delegation', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globexAdmin = (await findUserByEmail(stack.db, stack.seeded.tenants.globex.id, 'admin@globex.test'))!
		root = (await findUserByEmail(stack.db, null, 'root@platform.test'))!
		passwordHash = await hashPassword(DEMO_PASSWORD)
		boss = await signIn('admin@acme.test')
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	let n = 0
	/** A new tenant admin of Acme, signed in. */
	async function newAdmin() {
		n++
		const user = await upsertUser(stack.db, {
			tenant_id: acme.id,
			email: `inviter-${n}@acme.test`,
			role: 'tenant_admin',
			name: `Inviter ${n}`,
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		return { user, b: await signIn(user.email) }
	}
	/** The inviter invites a new address to the role through the invitation form; the link as mailed. */
	async function invite(inviter: Browser, role: InvitedRole) {
		n++
		const email = `invitee-${n}@acme.test`
		const sent = await inviter.post('/admin/users/invite', {
			email,
			role,
			...(role === 'course_admin' ? { course_slug: 'intro-to-web' } : {}),
		})
		expect(sent.status, `invitation to ${email}`).toBe(302)
		return { email, link: linkIn(await stack.mail.waitFor(email), '/invite/') }
	}
	/** The invitee opens the link and accepts with a name and password; what they then are. */
	async function accept(link: string, email: string) {
		const b = stack.browser(ACME)
		const page = await b.get(link)
		const posted = await b.post(link, { name: 'Ivy Invitee', password: 'invitee-pass-2026' })
		const user = await findUserByEmail(stack.db, acme.id, email)
		return { page: page.status, posted: posted.status, role: user?.role ?? null, session: b.jar.has('lms_session') }
	}
	const pendingShown = async (email: string) => (await boss.get('/admin/users/invitations')).text.includes(email)
	const revokedAudit = async (email: string) => {
		const a = stack.db.t.audit_log
		const rows = await stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.tenant_id, acme.id), eq(a.action, 'invitation.revoked')))
		return rows.some((r) => (r.metadata as { email?: string }).email === email)
	}

	const WITHDRAWALS: { label: string; withdraw: (inviter: User) => Promise<unknown> }[] = [
		{
			label: 'demoted to student',
			withdraw: (u) => boss.post(`/admin/users/${u.id}`, { intent: 'change-role', role: 'student', confirmed: 'yes' }),
		},
		{
			label: 'demoted to course admin',
			withdraw: (u) =>
				boss.post(`/admin/users/${u.id}`, {
					intent: 'change-role',
					role: 'course_admin',
					course_slug: 'intro-to-web',
					confirmed: 'yes',
				}),
		},
		{
			label: 'deactivated',
			withdraw: (u) => boss.post(`/admin/users/${u.id}`, { intent: 'deactivate', confirmed: 'yes' }),
		},
	]

	it("withdraws an admin's pending invitations when they are demoted or deactivated", async () => {
		for (const { label, withdraw } of WITHDRAWALS) {
			for (const role of ['tenant_admin', 'course_admin', 'student'] as const) {
				const inviter = await newAdmin()
				const { email, link } = await invite(inviter.b, role)
				const done = (await withdraw(inviter.user)) as { status: number }
				expect(done.status, `${label}`).toBe(302)
				const listed = await pendingShown(email)
				const accepted = await accept(link, email)
				hostile.check(
					`${role} invitation after its inviter was ${label}: not accepted`,
					accepted.role === null && !accepted.session,
					`page ${accepted.page}, post ${accepted.posted}, role ${accepted.role}`,
				)
				hostile.check(`${role} invitation after its inviter was ${label}: off the pending list`, !listed)
				hostile.check(`${role} invitation after its inviter was ${label}: audited`, await revokedAudit(email))
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it("withdraws a tenant's pending invitations when it is suspended; reactivation does not bring them back", async () => {
		const inviter = await newAdmin()
		const { email, link } = await invite(inviter.b, 'tenant_admin')
		const apex = await signIn('root@platform.test', APEX)
		for (const status of ['suspended', 'active'])
			expect(
				(await apex.post('/admin/tenants', { intent: 'status', tenantId: acme.id, status, confirmed: 'yes' })).status,
			).toBe(302)
		const accepted = await accept(link, email)
		hostile.check('invitation after a suspension: not accepted', accepted.role === null, `role ${accepted.role}`)
		hostile.check('invitation after a suspension: audited', await revokedAudit(email))
		boss = await signIn('admin@acme.test')
		expect(hostile.newFailures()).toEqual([])
	}, 60_000)

	it("re-checks the inviter's authority, and the course, when an invitation is accepted", async () => {
		// Demotions and deactivations written straight to the database (as before withdrawal existed):
		// only the check at acceptance stands between these links and a new account.
		const cases: { label: string; role: InvitedRole; change: (u: User) => Promise<unknown> }[] = [
			{
				label: 'inviter now a student',
				role: 'tenant_admin',
				change: (u) => updateUser(stack.db, u.id, { role: 'student' }),
			},
			{
				label: 'inviter now a course admin',
				role: 'course_admin',
				change: (u) => updateUser(stack.db, u.id, { role: 'course_admin' }),
			},
			{
				label: 'inviter deactivated',
				role: 'student',
				change: (u) => updateUser(stack.db, u.id, { deactivated_at: new Date() }),
			},
		]
		for (const c of cases) {
			const inviter = await newAdmin()
			const { email, link } = await invite(inviter.b, c.role)
			await c.change(inviter.user)
			const accepted = await accept(link, email)
			hostile.check(`${c.label}: ${c.role} invitation not accepted`, accepted.role === null, `role ${accepted.role}`)
		}
		// Invitations no active admin of this tenant stands behind, or for a course that cannot be granted.
		const active = (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!
		const made: { label: string; input: Parameters<typeof createInvitation>[1] }[] = [
			{
				label: "another tenant's admin",
				input: { tenantId: acme.id, email: '', role: 'tenant_admin', invitedBy: globexAdmin.id },
			},
			{ label: 'no inviter', input: { tenantId: acme.id, email: '', role: 'tenant_admin', invitedBy: null } },
			{
				label: 'a student',
				input: {
					tenantId: acme.id,
					email: '',
					role: 'tenant_admin',
					invitedBy: (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!.id,
				},
			},
			{
				label: 'a course admin',
				input: {
					tenantId: acme.id,
					email: '',
					role: 'course_admin',
					courseSlug: 'intro-to-web',
					invitedBy: (await findUserByEmail(stack.db, acme.id, 'author@acme.test'))!.id,
				},
			},
			{
				label: 'a course never published',
				input: { tenantId: acme.id, email: '', role: 'course_admin', courseSlug: 'draft-course', invitedBy: active.id },
			},
			{
				label: 'an archived course',
				input: {
					tenantId: acme.id,
					email: '',
					role: 'course_admin',
					courseSlug: 'retired-course',
					invitedBy: active.id,
				},
			},
			{
				label: 'a course that does not exist',
				input: {
					tenantId: acme.id,
					email: '',
					role: 'course_admin',
					courseSlug: 'no-such-course',
					invitedBy: active.id,
				},
			},
			{
				label: "another tenant's course",
				input: {
					tenantId: acme.id,
					email: '',
					role: 'course_admin',
					courseSlug: 'globex-onboarding',
					invitedBy: active.id,
				},
			},
		]
		for (const m of made) {
			n++
			const email = `made-${n}@acme.test`
			const { raw } = await createInvitation(stack, { ...m.input, email })
			const accepted = await accept(`/invite/${raw}`, email)
			hostile.check(
				`invitation by ${m.label}: not accepted`,
				accepted.role === null && !accepted.session,
				`role ${accepted.role}`,
			)
		}
		// Those who still may: an active tenant admin and the platform's super admin.
		for (const [label, invitedBy] of [
			['an active tenant admin', active.id],
			['a super admin', root.id],
		] as const) {
			n++
			const email = `granted-${n}@acme.test`
			const { raw } = await createInvitation(stack, { tenantId: acme.id, email, role: 'tenant_admin', invitedBy })
			const accepted = await accept(`/invite/${raw}`, email)
			hostile.check(
				`invitation by ${label}: accepted`,
				accepted.role === 'tenant_admin' && accepted.session,
				`role ${accepted.role}`,
			)
		}
		n++
		const courseAdmin = `granted-${n}@acme.test`
		const { raw } = await createInvitation(stack, {
			tenantId: acme.id,
			email: courseAdmin,
			role: 'course_admin',
			courseSlug: 'intro-to-web',
			invitedBy: active.id,
		})
		const granted = await accept(`/invite/${raw}`, courseAdmin)
		hostile.check(
			'course admin invitation for a published course: accepted',
			granted.role === 'course_admin',
			`role ${granted.role}`,
		)
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it("refuses the tenant-override link once its super admin's sessions were ended", async () => {
		const before = await stack.db.orm.select().from(stack.db.t.sessions).where(eq(stack.db.t.sessions.user_id, root.id))
		const proof = mintConsumedTokenProof(stack, root, `enter-${acme.id}`)
		// Minted, then the super admin signs out everywhere (or is signed out by another super admin).
		await updateUser(stack.db, root.id, {}, { bumpTokenVersion: true })
		const b = stack.browser(ACME)
		const path = `/admin/enter?user=${root.id}&proof=${encodeURIComponent(proof)}`
		const opened = await b.get(path)
		// Then the POST its button sends (an attacker holding the link can send it without the page).
		if (!b.jar.has('lms_session')) await b.post(path, {})
		const after = await stack.db.orm.select().from(stack.db.t.sessions).where(eq(stack.db.t.sessions.user_id, root.id))
		hostile.check(
			'override link minted before a sign-out everywhere',
			after.length === before.length && !b.jar.has('lms_session'),
			`${opened.status}`,
		)
		expect(hostile.newFailures()).toEqual([])
	})
})

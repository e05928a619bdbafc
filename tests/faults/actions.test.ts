/**
 * Fault: every action that writes more than one row, with a write after its first made to fail
 * (issue 36, item 9). Revoking a course admin with its second write failing answered 503 and left
 * the assignment deleted, no token bump and no audit row, the revoked admin's session still able to
 * preview the course, and a retry answering 404; deactivation, reactivation and force sign-out wrote
 * the user and the audit row apart. Here each multi-write action of an admin or a user, table by
 * table, gets each of its later writes refused by a trigger (SQLite: `RAISE(ABORT)`; PostgreSQL: a
 * plpgsql `RAISE EXCEPTION`): the answer must be an error without internals, nothing of the action
 * may be stored (every table it touches compared row for row), and the same request sent again
 * once the fault is gone must do the whole action.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { issueToken } from '#app/accounts/tokens.server.ts'
import { erasedEmail } from '#db/data-rights.ts'
import { newId } from '#db/ids.ts'
import { assignCourseAdmin, markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { liveCertificate } from '#db/certificates.ts'
import { findUserByEmail, upsertUser, type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import type { TestResponse } from '#tests/support/http.ts'
import { passAssignment } from '#tests/support/results.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { describeWrite, differences, failWrites, showsInternals, snapshot, type Write } from './failing-writes.ts'
import { reportFault } from './support.ts'
import { createInvitation, createTenant, recordAttempt } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const APEX = 'localhost'

/** Whether a page asks with a form that posts back to its own URL (not, say, the footer's locale form). */
function asks(html: string, path: string) {
	return [...html.matchAll(/<form\b[^>]*>/gi)].some(
		([tag]) => /method="post"/i.test(tag) && /action="([^"]*)"/.exec(tag)?.[1].replaceAll('&amp;', '&') === path,
	)
}

/** Every table an action here writes: compared row for row before and after a failed attempt. */
const TABLES = [
	'users',
	'sessions',
	'verification_tokens',
	'invitations',
	'course_admin_assignments',
	'audit_log',
	'tenants',
	'enrollments',
	'oauth_accounts',
	'entry_progress',
	'second_chances',
	'course_passes',
	'announcements',
	'due_extensions',
	'assignment_submissions',
	'submission_files',
	'file_chunks',
	'certificates',
	'jobs',
] as const

interface Case {
	name: string
	/** The action's writes after its first, in order: each is made to fail in turn. */
	later: Write[]
	/** Sets a fresh case up: the request that does the action (sent again after the failure), and what it should answer. */
	prepare: () => Promise<{
		send: () => Promise<TestResponse>
		ok: (res: TestResponse) => boolean
		done: () => Promise<boolean>
	}>
}

describe.each(DIALECTS)('multi-write actions failing half way on %s', (dialect) => {
	let stack: Stack
	let apex: Browser
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		passwordHash = await hashPassword(DEMO_PASSWORD)
		apex = stack.browser(APEX)
		expect((await apex.post('/learn/sign-in', { email: 'root@platform.test', password: DEMO_PASSWORD })).status).toBe(
			302,
		)
	})
	afterAll(() => stack?.close())

	const acme = () => stack.seeded.tenants.acme
	let n = 0
	/** A new account of Acme (verified, with the demo password), and a browser signed in as it. */
	async function person(role: User['role'] = 'student', options: { signIn?: boolean; verified?: boolean } = {}) {
		n++
		const user = await upsertUser(stack.db, {
			tenant_id: acme().id,
			email: `fault-${n}@acme.test`,
			role,
			name: `Fault ${n}`,
			password_hash: passwordHash,
			email_verified_at: options.verified === false ? null : new Date(),
		})
		const b = stack.browser(ACME)
		if (options.signIn !== false)
			expect((await b.post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD })).status).toBe(302)
		return { user, b }
	}
	const admin = () => person('tenant_admin')
	const fresh = async (id: string) =>
		(await stack.db.orm.select().from(stack.db.t.users).where(eq(stack.db.t.users.id, id)))[0]
	const audited = async (action: string, targetId: string) =>
		(
			await stack.db.orm
				.select()
				.from(stack.db.t.audit_log)
				.where(and(eq(stack.db.t.audit_log.action, action), eq(stack.db.t.audit_log.target_id, targetId)))
		).length > 0
	const redirected = (res: TestResponse) => res.status === 302 || res.status === 303
	const pendingInvitation = async (invitedBy: string, tenantId = acme().id) => {
		n++
		return (
			await createInvitation(stack, { tenantId, email: `fault-invitee-${n}@acme.test`, role: 'student', invitedBy })
		).invitation
	}
	/** A super admin's browser on Acme's host, through the apex page's override link. */
	const superOnAcme = () => stack.enter(apex, acme())
	/** The override link the apex page mints for Acme, as a path on Acme's host. */
	async function overrideLink() {
		const entered = await apex.post('/admin/tenants', { intent: 'enter', tenantId: acme().id })
		const url = new URL(String(entered.headers.location))
		return `${url.pathname}${url.search}`
	}
	/**
	 * A link opened as a person does: the GET, then, when the page asks (a 200 with a form that posts
	 * and no session yet), its button, a same-origin post of `form` to the same URL.
	 */
	async function open(b: Browser, path: string, form: Record<string, string> = {}) {
		const had = b.jar.get('lms_session')
		const opened = await b.get(path)
		if (opened.status !== 200 || b.jar.get('lms_session') !== had || !asks(opened.text, path)) return opened
		return b.post(path, form)
	}

	const CASES: Case[] = [
		{
			// A hand-in's first write is its file's row, as the body arrives; the rest follow (issue 46).
			name: 'hand-in with a file',
			later: [
				['file_chunks', 'INSERT'],
				['assignment_submissions', 'INSERT'],
				['submission_files', 'UPDATE'],
				['jobs', 'INSERT', 'mail.submissionReceived'],
				['jobs', 'INSERT', 'files.removeAbandoned'],
				['course_passes', 'INSERT'],
			],
			prepare: async () => {
				const { user, b } = await person()
				const scope = { tenantId: acme().id, userId: user.id }
				await putEnrollment(stack.db, scope, 'intro-to-web', 'active')
				// The assignment opens once the lesson before it is complete.
				await markEntryCompleteRow(stack.db, scope, 'intro-to-web', 'progressive-enhancement')
				const form = { intent: 'hand-in', text: 'My form', submission: `fault-hand-in-${newId()}` }
				// Two chunks of the file store (256 KiB each), so that a chunk is written after the file's row.
				const file = { name: 'form.txt', type: 'text/plain', body: 'a'.repeat(300_000) }
				const s = stack.db.t.assignment_submissions
				return {
					send: () => b.postMultipart('/learn/course/intro-to-web/entry/build-a-form', form, [file]),
					ok: redirected,
					done: async () => {
						const [row] = await stack.db.orm.select().from(s).where(eq(s.user_id, user.id))
						if (!row) return false
						const f = stack.db.t.submission_files
						return (await stack.db.orm.select().from(f).where(eq(f.submission_id, row.id))).length === 1
					},
				}
			},
		},
		{
			// The old certificate revoked as "reissued", its audit row, the new one and its mail (decision 0038).
			name: 'certificate reissued after a name change',
			later: [
				['audit_log', 'INSERT'],
				['certificates', 'INSERT'],
				['jobs', 'INSERT', 'mail.certificateIssued'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user, b: learner } = await person()
				const scope = { tenantId: acme().id, userId: user.id }
				await putEnrollment(stack.db, scope, 'intro-to-web', 'active')
				for (const slug of ['what-is-http', 'html-forms', 'progressive-enhancement', 'build-a-form'])
					await markEntryCompleteRow(stack.db, scope, 'intro-to-web', slug)
				await passAssignment(stack.db, scope, 'intro-to-web', 'build-a-form')
				const quiz = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'form' }
				expect((await learner.post('/learn/course/intro-to-web/entry/basics-quiz', quiz)).status).toBe(302)
				const old = await liveCertificate(stack.db, acme().id, user.id, 'intro-to-web')
				expect(old, 'the certificate of the pass').toBeDefined()
				await stack.db.orm.update(stack.db.t.users).set({ name: 'Renamed' }).where(eq(stack.db.t.users.id, user.id))
				return {
					send: () =>
						b.post('/admin/courses/intro-to-web/certificates', {
							intent: 'reissue',
							id: old!.id,
							confirmed: 'yes',
						}),
					ok: redirected,
					done: async () =>
						(await liveCertificate(stack.db, acme().id, user.id, 'intro-to-web'))?.recipient_name === 'Renamed',
				}
			},
		},
		{
			name: 'course admin revoked',
			later: [
				['users', 'UPDATE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user, b: revokedOne } = await person('course_admin')
				await assignCourseAdmin(stack.db, { tenantId: acme().id, userId: user.id }, 'intro-to-web', null)
				return {
					send: () =>
						b.post('/admin/courses/intro-to-web/admins', { intent: 'revoke', userId: user.id, confirmed: 'yes' }),
					ok: redirected,
					done: async () =>
						(await audited('course.admin_revoked', user.id)) &&
						(await revokedOne.get('/learn/course/intro-to-web/entry/what-is-http?preview=1')).status !== 200,
				}
			},
		},
		{
			// Decision 0045: the placeholder, the sessions, the second chance, the invitation to them and the audit row together.
			name: 'person erased',
			later: [
				['sessions', 'UPDATE'],
				['second_chances', 'DELETE'],
				['invitations', 'DELETE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person()
				const t = stack.db.t
				await stack.db.orm.insert(t.second_chances).values({
					id: newId(),
					tenant_id: acme().id,
					user_id: user.id,
					course_slug: 'intro-to-web',
					entry_slug: 'basics-quiz',
					kind: 'quiz_attempts',
					extra_attempts: 1,
					reason: 'ill',
				})
				await stack.db.orm.insert(t.invitations).values({
					id: newId(),
					email: user.email,
					tenant_id: acme().id,
					role: 'course_admin',
					course_slug: 'intro-to-web',
					token_hash: `fault-${newId()}`,
					expires_at: new Date(Date.now() + 3_600_000),
				})
				return {
					send: () => b.post(`/admin/users/${user.id}/erase`, { intent: 'erase', confirmed: 'yes' }),
					ok: redirected,
					done: async () => (await fresh(user.id)).email === erasedEmail(user.id) && audited('user.erased', user.id),
				}
			},
		},
		{
			name: 'course admin assigned',
			later: [
				['users', 'UPDATE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('course_admin', { signIn: false })
				return {
					send: () => b.post('/admin/courses/advanced-css/admins', { intent: 'assign', email: user.email }),
					ok: redirected,
					done: () => audited('course.admin_assigned', user.id),
				}
			},
		},
		{
			name: 'deactivation (with a pending invitation to withdraw)',
			later: [
				['invitations', 'DELETE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('tenant_admin', { signIn: false })
				await pendingInvitation(user.id)
				return {
					send: () => b.post(`/admin/users/${user.id}`, { intent: 'deactivate', confirmed: 'yes' }),
					ok: redirected,
					done: async () =>
						Boolean((await fresh(user.id)).deactivated_at) && (await audited('user.deactivated', user.id)),
				}
			},
		},
		{
			name: 'reactivation',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				await stack.db.orm
					.update(stack.db.t.users)
					.set({ deactivated_at: new Date() })
					.where(eq(stack.db.t.users.id, user.id))
				return {
					send: () => b.post(`/admin/users/${user.id}`, { intent: 'reactivate' }),
					ok: redirected,
					done: async () => !(await fresh(user.id)).deactivated_at && (await audited('user.reactivated', user.id)),
				}
			},
		},
		{
			name: 'force sign-out',
			later: [
				['users', 'UPDATE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				await issueToken(stack.db, user.id, 'magic_link')
				return {
					send: () => b.post(`/admin/users/${user.id}`, { intent: 'force-sign-out', confirmed: 'yes' }),
					ok: redirected,
					done: () => audited('user.signed_out', user.id),
				}
			},
		},
		{
			name: 'role change, a tenant admin demoted (with a pending invitation to withdraw)',
			later: [
				['invitations', 'DELETE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('tenant_admin', { signIn: false })
				await pendingInvitation(user.id)
				return {
					send: () => b.post(`/admin/users/${user.id}`, { intent: 'change-role', role: 'student', confirmed: 'yes' }),
					ok: redirected,
					done: async () => (await fresh(user.id)).role === 'student' && (await audited('user.role_changed', user.id)),
				}
			},
		},
		{
			name: 'role change to course admin of a course',
			later: [
				['course_admin_assignments', 'INSERT'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				return {
					send: () =>
						b.post(`/admin/users/${user.id}`, {
							intent: 'change-role',
							role: 'course_admin',
							course_slug: 'intro-to-web',
							confirmed: 'yes',
						}),
					ok: redirected,
					done: async () =>
						(await fresh(user.id)).role === 'course_admin' && (await audited('course.admin_assigned', user.id)),
				}
			},
		},
		{
			name: 'tenant suspended (its sessions ended, its invitations withdrawn)',
			later: [
				['users', 'UPDATE'],
				['invitations', 'DELETE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				n++
				const tenant = (await createTenant(stack.db, { slug: `fault-${n}`, name: `Fault ${n}`, custom_domain: null }))!
				const member = await upsertUser(stack.db, {
					tenant_id: tenant.id,
					email: `member@fault-${n}.test`,
					role: 'tenant_admin',
					name: 'Member',
				})
				await pendingInvitation(member.id, tenant.id)
				return {
					send: () =>
						apex.post('/admin/tenants', {
							intent: 'status',
							tenantId: tenant.id,
							status: 'suspended',
							confirmed: 'yes',
						}),
					ok: redirected,
					done: () => audited('tenant.suspended', tenant.id),
				}
			},
		},
		{
			name: 'tenant activated',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				n++
				const tenant = (await createTenant(stack.db, { slug: `fault-${n}`, name: `Fault ${n}`, custom_domain: null }))!
				await stack.db.orm
					.update(stack.db.t.tenants)
					.set({ status: 'suspended' })
					.where(eq(stack.db.t.tenants.id, tenant.id))
				return {
					send: () => apex.post('/admin/tenants', { intent: 'status', tenantId: tenant.id, status: 'active' }),
					ok: redirected,
					done: () => audited('tenant.activated', tenant.id),
				}
			},
		},
		{
			name: 'tenant created, its first admin invited',
			later: [
				['audit_log', 'INSERT'],
				['invitations', 'INSERT'],
			],
			prepare: async () => {
				n++
				const slug = `created-${n}`
				return {
					send: () =>
						apex.post('/admin/tenants', {
							intent: 'create',
							slug,
							name: `Created ${n}`,
							admin_email: `first-${n}@created.test`,
						}),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.tenants).where(eq(stack.db.t.tenants.slug, slug))).length ===
						1,
				}
			},
		},
		{
			// Issue 40: the users list's resend (its job, then its audit row).
			name: 'confirmation link resent from the users list',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false, verified: false })
				return {
					send: () => b.post('/admin/users', { intent: 'resend-verification', userId: user.id }),
					ok: redirected,
					done: () => audited('user.verification_resent', user.id),
				}
			},
		},
		{
			name: 'invitation sent',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				n++
				const email = `fault-sent-${n}@acme.test`
				return {
					send: () => b.post('/admin/users/invite', { email, role: 'student' }),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.invitations).where(eq(stack.db.t.invitations.email, email)))
							.length === 1,
				}
			},
		},
		{
			name: 'invitation resent',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { user, b } = await admin()
				const invitation = await pendingInvitation(user.id)
				return {
					send: () => b.post('/admin/users/invitations', { intent: 'resend', id: invitation.id }),
					ok: redirected,
					done: () => audited('invitation.resent', invitation.id),
				}
			},
		},
		{
			name: 'invitation revoked',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { user, b } = await admin()
				const invitation = await pendingInvitation(user.id)
				return {
					send: () => b.post('/admin/users/invitations', { intent: 'revoke', id: invitation.id, confirmed: 'yes' }),
					ok: redirected,
					done: () => audited('invitation.revoked', invitation.id),
				}
			},
		},
		{
			name: 'enrollment cancelled by an admin',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				await putEnrollment(stack.db, { tenantId: acme().id, userId: user.id }, 'intro-to-web', 'active')
				return {
					send: () =>
						b.post(`/admin/users/${user.id}`, {
							intent: 'cancel-enrollment',
							courseSlug: 'intro-to-web',
							confirmed: 'yes',
						}),
					ok: redirected,
					done: async () =>
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.enrollments)
								.where(and(eq(stack.db.t.enrollments.user_id, user.id), eq(stack.db.t.enrollments.status, 'cancelled')))
						).length === 1,
				}
			},
		},
		{
			// Decision 0037: the grant, its audit row, the quiz entry and the enrollment reopened (audited), the result settled.
			name: 'second chance granted (a quiz entry whose attempts ran out, and the course, reopened)',
			later: [
				['audit_log', 'INSERT'],
				['entry_progress', 'UPDATE'],
				['enrollments', 'UPDATE'],
				['course_passes', 'INSERT'],
			],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				const scope = { tenantId: acme().id, userId: user.id }
				await putEnrollment(stack.db, scope, 'intro-to-web', 'completed')
				for (const slug of ['what-is-http', 'html-forms', 'basics-quiz', 'progressive-enhancement', 'build-a-form'])
					await markEntryCompleteRow(stack.db, scope, 'intro-to-web', slug)
				for (let i = 0; i < 3; i++)
					await recordAttempt(stack.db, scope, 'intro-to-web', 'basics-quiz', 3, {
						score: 0,
						passed: false,
						answers: {},
						feedback: [],
					})
				return {
					send: () =>
						b.post(`/admin/courses/intro-to-web/learners/${user.id}`, {
							intent: 'grant-attempts',
							entry: 'basics-quiz',
							attempts: '1',
							reason: 'Fault',
							key: `fault-second-chance-${n}-key`,
							// Every attempt used, the answers shown: the confirmed step (decision 0054).
							confirmed: 'yes',
						}),
					ok: redirected,
					done: async () =>
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.enrollments)
								.where(and(eq(stack.db.t.enrollments.user_id, user.id), eq(stack.db.t.enrollments.status, 'active')))
						).length === 1 &&
						(await audited('learner.attempts_granted', user.id)) &&
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.course_passes)
								.where(eq(stack.db.t.course_passes.user_id, user.id))
						).length === 1,
				}
			},
		},
		{
			// Decision 0045: the extension and its audit row, together.
			name: 'due date extended for one learner',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				await putEnrollment(stack.db, { tenantId: acme().id, userId: user.id }, 'intro-to-web', 'active')
				return {
					send: () =>
						b.post(`/admin/courses/intro-to-web/learners/${user.id}`, {
							intent: 'extend-due',
							entry: 'build-a-form',
							dueAt: '2099-01-01T12:00',
							reason: 'Fault',
						}),
					ok: redirected,
					done: async () =>
						(await audited('learner.due_extended', user.id)) &&
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.due_extensions)
								.where(eq(stack.db.t.due_extensions.user_id, user.id))
						).length === 1,
				}
			},
		},
		{
			name: 'enrollment reactivated by an admin',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				await putEnrollment(stack.db, { tenantId: acme().id, userId: user.id }, 'intro-to-web', 'cancelled')
				return {
					send: () => b.post(`/admin/users/${user.id}`, { intent: 'reenroll', courseSlug: 'intro-to-web' }),
					ok: redirected,
					done: async () =>
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.enrollments)
								.where(and(eq(stack.db.t.enrollments.user_id, user.id), eq(stack.db.t.enrollments.status, 'active')))
						).length === 1,
				}
			},
		},
		{
			name: 'invitation list carrying a course (decision 0040)',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				n++
				const email = `fault-list-${n}@acme.test`
				return {
					send: () =>
						b.post('/admin/users/invite', {
							intent: 'list',
							emails: email,
							role: 'student',
							course_slug: 'intro-to-web',
						}),
					ok: (res) => res.status === 200,
					done: async () => {
						const { invitations: i, invitation_courses: c } = stack.db.t
						const rows = await stack.db.orm.select().from(i).where(eq(i.email, email))
						if (rows.length !== 1) return false
						return (await stack.db.orm.select().from(c).where(eq(c.invitation_id, rows[0].id))).length === 1
					},
				}
			},
		},
		{
			name: 'enroll page inviting someone without an account (decision 0040)',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				n++
				const email = `fault-enroll-invite-${n}@acme.test`
				return {
					send: () => b.post('/admin/courses/intro-to-web/enroll', { intent: 'emails', emails: email }),
					ok: (res) => res.status === 200,
					done: async () => {
						const { invitations: i, invitation_courses: c } = stack.db.t
						const rows = await stack.db.orm.select().from(i).where(eq(i.email, email))
						if (rows.length !== 1) return false
						return (await stack.db.orm.select().from(c).where(eq(c.invitation_id, rows[0].id))).length === 1
					},
				}
			},
		},
		{
			name: 'learners enrolled from the course page',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const { user } = await person('student', { signIn: false })
				return {
					send: () => b.post('/admin/courses/intro-to-web/enroll', { intent: 'emails', emails: user.email }),
					ok: (res) => res.status === 200 || redirected(res),
					done: async () =>
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.enrollments)
								.where(eq(stack.db.t.enrollments.user_id, user.id))
						).length === 1,
				}
			},
		},
		{
			name: 'course settings saved',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const before = (await stack.db.orm.select().from(stack.db.t.audit_log)).filter(
					(r) => r.action === 'course.settings_changed',
				).length
				return {
					send: () => b.post('/admin/courses/advanced-css/settings', { sequential: 'on' }),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.audit_log)).filter(
							(r) => r.action === 'course.settings_changed',
						).length ===
						before + 1,
				}
			},
		},
		{
			name: 'announcement posted (decision 0047: with its audit row and its fan-out job)',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { b } = await admin()
				const subject = `Fault announcement ${++n}`
				return {
					send: () => b.post('/admin/courses/advanced-css/announce', { subject, message: 'Half way.' }),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.announcements)).filter((r) => r.subject === subject).length ===
							1 &&
						(await stack.db.orm.select().from(stack.db.t.audit_log)).some(
							(r) => r.action === 'course.announcement_sent' && r.metadata.subject === subject,
						),
				}
			},
		},
		{
			name: 'learner enrollment',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { user, b } = await person()
				return {
					send: () => b.post('/learn/course/intro-to-web/enroll', {}),
					ok: redirected,
					done: async () =>
						(
							await stack.db.orm
								.select()
								.from(stack.db.t.enrollments)
								.where(eq(stack.db.t.enrollments.user_id, user.id))
						).length === 1,
				}
			},
		},
		{
			name: 'impersonation started',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const b = await superOnAcme()
				const { user } = await person('student', { signIn: false })
				return {
					send: () => b.post('/api/admin/impersonate/start', { userId: user.id }),
					ok: redirected,
					done: () => audited('auth.impersonate.start', user.id),
				}
			},
		},
		{
			name: 'impersonation stopped',
			later: [
				['sessions', 'UPDATE'],
				['audit_log', 'INSERT'],
			],
			prepare: async () => {
				const b = await superOnAcme()
				const { user } = await person('student', { signIn: false })
				expect((await b.post('/api/admin/impersonate/start', { userId: user.id })).status).toBe(303)
				return {
					send: () => b.post('/api/admin/impersonate/stop', {}),
					ok: redirected,
					done: () => audited('auth.impersonate.stop', user.id),
				}
			},
		},
		{
			name: 'tenant override link used',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const path = await overrideLink()
				const before = (await stack.db.orm.select().from(stack.db.t.audit_log)).filter(
					(r) => r.action === 'auth.tenant_override',
				).length
				return {
					send: () => open(stack.browser(ACME), path),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.audit_log)).filter((r) => r.action === 'auth.tenant_override')
							.length ===
						before + 1,
				}
			},
		},
		{
			name: 'password changed (a reset link to retire, this device signed in again)',
			later: [
				['audit_log', 'INSERT'],
				['sessions', 'UPDATE'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				const { user, b } = await person()
				await issueToken(stack.db, user.id, 'password_reset')
				return {
					send: () =>
						b.post('/learn/account', {
							intent: 'change-password',
							oldPassword: DEMO_PASSWORD,
							newPassword: 'another-pass-2026',
						}),
					ok: redirected,
					done: () => audited('account.password.changed', user.id),
				}
			},
		},
		{
			name: 'signed out everywhere',
			later: [
				['users', 'UPDATE'],
				['sessions', 'UPDATE'],
			],
			prepare: async () => {
				const { user, b } = await person()
				await issueToken(stack.db, user.id, 'magic_link')
				const version = user.token_version
				return {
					send: () => b.post('/learn/account', { intent: 'sign-out-everywhere' }),
					ok: redirected,
					done: async () => (await fresh(user.id)).token_version === version + 1,
				}
			},
		},
		{
			name: 'name changed',
			later: [['audit_log', 'INSERT']],
			prepare: async () => {
				const { user, b } = await person()
				return {
					send: () => b.post('/learn/account', { intent: 'name', name: 'A New Name' }),
					ok: redirected,
					done: async () => (await fresh(user.id)).name === 'A New Name',
				}
			},
		},
		{
			name: 'email change confirmed',
			later: [
				['users', 'UPDATE'],
				['sessions', 'UPDATE'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				const { user, b } = await person()
				const raw = await issueToken(stack.db, user.id, 'email_change', { payload: `moved-${user.email}` })
				return {
					send: () => b.post(`/learn/account/email/${raw}`, {}),
					ok: redirected,
					done: async () => (await fresh(user.id)).email === `moved-${user.email}`,
				}
			},
		},
		{
			name: 'verification link confirmed',
			later: [
				['users', 'UPDATE'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				const { user } = await person('student', { signIn: false, verified: false })
				const raw = await issueToken(stack.db, user.id, 'email_verify')
				return {
					send: () => open(stack.browser(ACME), `/learn/verify/${raw}`),
					ok: redirected,
					done: async () => Boolean((await fresh(user.id)).email_verified_at),
				}
			},
		},
		{
			name: 'magic link confirmed',
			later: [['sessions', 'INSERT']],
			prepare: async () => {
				const { user } = await person('student', { signIn: false })
				const raw = await issueToken(stack.db, user.id, 'magic_link')
				return {
					send: () => open(stack.browser(ACME), `/learn/magic/${raw}`),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.sessions).where(eq(stack.db.t.sessions.user_id, user.id)))
							.length === 1,
				}
			},
		},
		{
			name: 'password reset',
			later: [
				['users', 'UPDATE'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				const { user } = await person('student', { signIn: false })
				const raw = await issueToken(stack.db, user.id, 'password_reset')
				return {
					send: () =>
						stack
							.browser(ACME)
							.post(`/learn/reset/${raw}`, { password: 'reset-pass-2026', confirm: 'reset-pass-2026' }),
					ok: redirected,
					done: async () => (await fresh(user.id)).password_hash !== user.password_hash,
				}
			},
		},
		{
			name: 'invitation accepted',
			later: [
				['users', 'INSERT'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				const inviter = (await findUserByEmail(stack.db, acme().id, 'admin@acme.test'))!
				n++
				const email = `fault-accepts-${n}@acme.test`
				const { raw } = await createInvitation(stack, {
					tenantId: acme().id,
					email,
					role: 'course_admin',
					courseSlug: 'intro-to-web',
					invitedBy: inviter.id,
				})
				return {
					send: () =>
						stack.browser(ACME).post(`/invite/${raw}`, { name: 'New Colleague', password: 'colleague-pass-2026' }),
					ok: redirected,
					done: async () => (await findUserByEmail(stack.db, acme().id, email))?.role === 'course_admin',
				}
			},
		},
		{
			name: 'credentials sign-in (a stale session to forget)',
			later: [['sessions', 'INSERT']],
			prepare: async () => {
				const { user, b } = await person()
				// The session just made, expired: the next sign-in forgets it and stores its own.
				await stack.db.orm
					.update(stack.db.t.sessions)
					.set({ expires_at: new Date(Date.now() - 1000) })
					.where(eq(stack.db.t.sessions.user_id, user.id))
				void b
				return {
					send: () => stack.browser(ACME).post('/learn/sign-in', { email: user.email, password: DEMO_PASSWORD }),
					ok: redirected,
					done: async () =>
						(await stack.db.orm.select().from(stack.db.t.sessions).where(eq(stack.db.t.sessions.user_id, user.id)))
							.length === 1,
				}
			},
		},
		{
			name: 'external sign-in creating an account',
			later: [
				['oauth_accounts', 'INSERT'],
				['sessions', 'INSERT'],
			],
			prepare: async () => {
				n++
				const email = `fault-oauth-${n}@example.test`
				return {
					send: () => externalSignIn(email, `fault-sub-${n}`),
					ok: redirected,
					done: async () => (await findUserByEmail(stack.db, acme().id, email)) !== null,
				}
			},
		},
	]

	/** The external sign-in's whole round trip through the test identity provider: the callback's answer. */
	async function externalSignIn(email: string, sub: string) {
		const b = stack.browser(ACME)
		const start = await b.post('/api/auth/google', { callbackUrl: '' })
		const authorize = new URL(String(start.headers.location))
		const idp = stack.browser('localhost')
		await idp.get(`${authorize.pathname}${authorize.search}`)
		const back = await idp.post(`${authorize.pathname}${authorize.search}`, {
			...Object.fromEntries(authorize.searchParams),
			sub,
			email,
			name: 'External Person',
			picture: '',
			decision: 'allow',
			email_verified: 'true',
		})
		const callback = new URL(String(back.headers.location))
		return b.get(`${callback.pathname}${callback.search}`)
	}

	it('stores every multi-write action whole or not at all, and a retry then does it', async () => {
		const failures: string[] = []
		let runs = 0
		for (const c of CASES) {
			for (const write of c.later) {
				runs++
				const label = `${c.name}, ${describeWrite(write)} failing`
				const { send, ok, done } = await c.prepare()
				await stack.settled()
				const before = await snapshot(stack.db, TABLES)
				const drop = await failWrites(stack.db, write)
				let failed: TestResponse
				try {
					failed = await send()
				} finally {
					await drop()
				}
				await stack.settled()
				const partial = differences(before, await snapshot(stack.db, TABLES))
				if (failed.status < 500) failures.push(`${label}: answered ${failed.status}`)
				if (showsInternals(failed.text)) failures.push(`${label}: internals in the answer`)
				if (partial.length) failures.push(`${label}: stored in part (${partial.join('; ')})`)
				const retried = await send()
				if (!ok(retried)) failures.push(`${label}: the retry answered ${retried.status}`)
				else if (!(await done())) failures.push(`${label}: the retry did not do it all`)
			}
		}
		reportFault(
			'multi-write actions',
			dialect,
			{
				actions: CASES.length,
				'writes failed': runs,
				'stored in part or not retried': failures.length,
			},
			{ requests: runs * 2, failedButStored: failures.length },
		)
		expect(failures).toEqual([])
	}, 300_000)
})

import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locale } from '#app/i18n/locales.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { type AuditAction } from '#db/audit.ts'
import { type Tenant } from '#db/tenants.ts'
import { findUserById, updateUser } from '#db/users.ts'
import { putEnrollment } from '#db/learning.ts'
import { auditLogRows, type AuditLogRow } from '#tests/support/audit-log.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, createUser, findTenantBySlug, writeAudit } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

// Every admin page of a tenant host, and the course pages of the assigned course.
const TENANT_PAGES = [
	'/admin',
	'/admin/users',
	'/admin/users/invite',
	'/admin/courses',
	'/admin/audit',
	'/admin/api-docs',
	'/admin/api-docs/swagger-ui-bundle.js',
	'/admin/courses/intro-to-web/admins',
]
const ASSIGNED_COURSE_PAGES = [
	'/admin/courses/intro-to-web/dashboard',
	'/admin/courses/intro-to-web/settings',
	'/admin/courses/intro-to-web/export',
]

describe.each(DIALECTS)('administration on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let globex: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		globex = stack.seeded.tenants.globex
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	const user = (key: string) => stack.seeded.users[key]
	// Staff sessions are reused across tests: each address has ten sign-ins per 15 minutes from this one test IP.
	const staff = new Map<string, Promise<Browser>>()
	function signedIn(email: string, host = ACME): Promise<Browser> {
		if (!/^(admin|author|root)@/.test(email)) return signInFresh(email, host)
		const key = `${host}|${email}`
		if (!staff.has(key)) staff.set(key, signInFresh(email, host))
		return staff.get(key)!
	}
	const signInFresh = (email: string, host = ACME) => stack.signIn(email, host)
	let n = 0
	async function newUser(
		role: 'student' | 'course_admin' | 'tenant_admin',
		tenant = acme,
		fields: { name?: string; locale?: Locale } = {},
	) {
		return createUser(stack.db, {
			tenant_id: tenant.id,
			email: `admin-test-${++n}@acme.test`,
			name: fields.name ?? `Person ${n}`,
			role,
			password_hash: passwordHash,
			email_verified_at: new Date(),
			locale: fields.locale,
		})
	}
	/** The super_admin signed in on the apex, then entered into a tenant host through /admin/tenants. */
	async function superOn(tenant: Tenant) {
		const apex = await signedIn('root@platform.test', 'localhost')
		return { apex, b: await stack.enter(apex, tenant) }
	}

	describe('who reaches what', () => {
		it('sends visitors to sign-in', async () => {
			for (const path of [...TENANT_PAGES, ...ASSIGNED_COURSE_PAGES, '/admin/tenants']) {
				const res = await stack.request(ACME, path)
				expect(res.status, path).toBe(302)
				expect(res.headers.location).toMatch(/^\/learn\/sign-in\?callbackUrl=/)
			}
		})

		it('refuses students with 403', async () => {
			const b = await signedIn('learner@acme.test')
			for (const path of [...TENANT_PAGES, ...ASSIGNED_COURSE_PAGES, '/admin/tenants'])
				expect((await b.get(path)).status, path).toBe(403)
			expect(
				(
					await b.post(`/admin/users/${user('acme:newbie@acme.test').id}`, {
						intent: 'force-sign-out',
						confirmed: 'yes',
					})
				).status,
			).toBe(403)
		})

		it('lets an assigned course_admin into their course only; 404 everywhere else', async () => {
			const b = await signedIn('author@acme.test')
			for (const path of ASSIGNED_COURSE_PAGES) expect((await b.get(path)).status, path).toBe(200)
			for (const path of [
				...TENANT_PAGES,
				'/admin/tenants',
				'/admin/courses/advanced-css/dashboard',
				'/admin/courses/advanced-css/settings',
			]) {
				expect((await b.get(path)).status, path).toBe(404)
			}
			expect((await b.post('/admin/courses/advanced-css/settings', { sequential: 'on' })).status).toBe(404)
			expect(
				(
					await b.post(`/admin/users/${user('acme:newbie@acme.test').id}`, {
						intent: 'force-sign-out',
						confirmed: 'yes',
					})
				).status,
			).toBe(404)
		})

		it('offers each role only links it may open: every link of its landing page and the pages it links to answers', async () => {
			// A person clicks what the page shows: the header's and the page's links, two levels from the landing.
			for (const [email, landing] of [
				['author@acme.test', '/admin/courses/intro-to-web/dashboard'],
				['admin@acme.test', '/admin'],
				['learner@acme.test', '/learn/dashboard'],
			]) {
				const b = await signedIn(email)
				const seen = new Set<string>()
				let level = [landing]
				for (let depth = 0; depth < 2; depth++) {
					const next: string[] = []
					for (const path of level) {
						const res = await b.get(path)
						expect(res.status, `${email} ${path}`).toBe(200)
						if (!String(res.headers['content-type']).startsWith('text/html')) continue
						const $ = load(res.text)
						for (const el of $('a[href^="/"]').toArray()) {
							const href = $(el).attr('href')!.split('#')[0]
							if (!/^\/(admin|learn)(\/|$)/.test(href) || href.startsWith('/learn/sign-out') || seen.has(href)) continue
							seen.add(href)
							next.push(href)
						}
					}
					level = next
				}
				expect(seen.size, email).toBeGreaterThan(2)
			}
			// The dashboard opens each entry as staff preview it.
			const dashboard = load(
				(await (await signedIn('author@acme.test')).get('/admin/courses/intro-to-web/dashboard')).text,
			)
			expect(dashboard('a[href*="/entry/"]').first().attr('href')).toMatch(
				/^\/learn\/course\/intro-to-web\/entry\/[\w-]+\?preview=1$/,
			)
			// The course admin's header leads to their course, not to /admin (a 404 for them).
			const $ = load((await (await signedIn('author@acme.test')).get('/learn')).text)
			expect($('header nav a[href^="/admin"]').attr('href')).toBe('/admin/courses/intro-to-web/dashboard')
		})

		it('gives an unassigned course_admin 404 on every admin page', async () => {
			const unassigned = await newUser('course_admin')
			const b = await signedIn(unassigned.email)
			for (const path of [...TENANT_PAGES, ...ASSIGNED_COURSE_PAGES, '/admin/tenants'])
				expect((await b.get(path)).status, path).toBe(404)
		})

		it('lets a tenant_admin use every tenant page but not tenants (403), and not another tenant', async () => {
			const b = await signedIn('admin@acme.test')
			for (const path of [...TENANT_PAGES, ...ASSIGNED_COURSE_PAGES]) expect((await b.get(path)).status, path).toBe(200)
			expect((await b.get('/admin/tenants')).status).toBe(403)
			// A user of another tenant is not found here, and nothing changes.
			const other = user('globex:learner@globex.test')
			expect((await b.get(`/admin/users/${other.id}`)).status).toBe(404)
			expect((await b.post(`/admin/users/${other.id}`, { intent: 'deactivate', confirmed: 'yes' })).status).toBe(404)
			expect((await findUserById(stack.db, other.id))!.deactivated_at).toBeNull()
			// Globex's admin has no session on Acme's host.
			const globexAdmin = await signedIn('admin@globex.test', 'globex.localhost')
			const cookie = globexAdmin.cookieHeader()
			expect((await stack.request(ACME, '/admin', { headers: { cookie } })).status).toBe(302)
		})

		it('refuses every admin action to those without the right, writing nothing', async () => {
			const newbie = user('acme:newbie@acme.test').id
			const actions: Array<[string, Record<string, string>]> = [
				[`/admin/users/${newbie}`, { intent: 'deactivate', confirmed: 'yes' }],
				[`/admin/users/${newbie}`, { intent: 'change-role', confirmed: 'yes', role: 'tenant_admin' }],
				['/admin/users/invite', { email: 'matrix@acme.test', role: 'tenant_admin' }],
				['/admin/courses/intro-to-web/settings', { sequential: 'on' }],
				[
					'/admin/courses/intro-to-web/admins',
					{ intent: 'revoke', confirmed: 'yes', userId: user('acme:author@acme.test').id },
				],
				['/admin/tenants', { intent: 'create', slug: 'matrix', name: 'Matrix' }],
				['/api/admin/impersonate/start', { userId: newbie }],
			]
			const expected: Array<[string, Browser, number[]]> = [
				['student', await signedIn('learner@acme.test'), [403, 403, 403, 403, 403, 403, 403]],
				[
					'unassigned course_admin',
					await signedIn((await newUser('course_admin')).email),
					[404, 404, 404, 404, 404, 404, 403],
				],
				['assigned course_admin', await signedIn('author@acme.test'), [404, 404, 404, 302, 404, 404, 403]],
			]
			for (const [who, b, statuses] of expected) {
				for (const [i, [path, body]] of actions.entries()) {
					const res = await b.post(path, body)
					expect(res.status, `${who} ${path} ${JSON.stringify(body)}`).toBe(statuses[i])
				}
			}
			// The assigned course_admin's settings change was allowed; put it back.
			await (await signedIn('author@acme.test')).post('/admin/courses/intro-to-web/settings', {})
			const tenantAdmin = await signedIn('admin@acme.test')
			expect(
				(await tenantAdmin.post('/admin/tenants', { intent: 'create', slug: 'matrix', name: 'Matrix' })).status,
			).toBe(403)
			expect((await tenantAdmin.post('/api/admin/impersonate/start', { userId: newbie })).status).toBe(403)

			expect((await findUserById(stack.db, newbie))!).toMatchObject({ deactivated_at: null, role: 'student' })
			expect(
				await stack.db.orm
					.select()
					.from(stack.db.t.invitations)
					.where(eq(stack.db.t.invitations.email, 'matrix@acme.test')),
			).toHaveLength(0)
			expect(await findTenantBySlug(stack.db, 'matrix')).toBeNull()
			expect(
				await stack.db.orm
					.select()
					.from(stack.db.t.course_admin_assignments)
					.where(eq(stack.db.t.course_admin_assignments.course_slug, 'intro-to-web')),
			).toHaveLength(1)
		})

		it('shows the super_admin each user’s tenant on the apex, and filters the list by tenant', async () => {
			const apex = await signedIn('root@platform.test', 'localhost')
			const rows = async (search: string) => {
				const $ = load((await apex.get(`/admin/users${search}`)).text)
				const header = $('thead th')
					.toArray()
					.map((el) => $(el).text())
				const tenant = header.indexOf('Tenant')
				const email = header.indexOf('Email')
				return $('tbody tr')
					.toArray()
					.map((tr) => {
						const cells = $(tr).find('td')
						return [cells.eq(email).text(), cells.eq(tenant).text()]
					})
			}
			const all = await rows('')
			expect(all).toContainEqual(['root@platform.test', 'Platform'])
			expect(all).toContainEqual(['learner@acme.test', 'Acme Academy'])
			expect(all).toContainEqual(['learner@globex.test', expect.any(String)])
			const globex = await rows('?tenant=globex')
			expect(globex.length).toBeGreaterThan(0)
			expect(globex.every(([email]) => email.endsWith('@globex.test') || email === 'shared@example.test')).toBe(true)
			// An unknown slug filters nothing out rather than failing.
			expect((await rows('?tenant=%00nope')).length).toBe(all.length)
			// A tenant host has no tenant column or filter: its list is its own.
			const own = load((await (await signedIn('admin@acme.test')).get('/admin/users')).text)
			expect(own('select[name="tenant"]')).toHaveLength(0)
		})

		it('lets the super_admin run the platform on the apex and a tenant after entering it', async () => {
			const apex = await signedIn('root@platform.test', 'localhost')
			for (const path of [
				'/admin',
				'/admin/users',
				'/admin/audit',
				'/admin/tenants',
				'/admin/courses',
				'/admin/courses/intro-to-web/settings',
			]) {
				expect((await apex.get(path)).status, path).toBe(200)
			}
			expect((await apex.get('/admin/courses/intro-to-web/settings')).text).toContain('Open the tenant')
			const { b } = await superOn(acme)
			for (const path of [...TENANT_PAGES, ...ASSIGNED_COURSE_PAGES, '/admin/tenants'])
				expect((await b.get(path)).status, path).toBe(200)
			// The entry proof is bound to its tenant.
			const enter = await apex.post('/admin/tenants', { intent: 'enter', tenantId: acme.id })
			const url = new URL(String(enter.headers.location))
			expect((await stack.request('globex.localhost', `${url.pathname}${url.search}`)).status).toBe(404)
		})
	})

	describe('user actions', () => {
		it('changes a role within student, course_admin and tenant_admin, bumping token_version and auditing', async () => {
			const target = await newUser('student')
			const targetSession = await signedIn(target.email)
			const admin = await signedIn('admin@acme.test')
			const res = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				confirmed: 'yes',
				role: 'course_admin',
				course_slug: 'intro-to-web',
			})
			expect(res.headers.location).toBe(`/admin/users/${target.id}?notice=role-changed`)
			const after = (await findUserById(stack.db, target.id))!
			expect(after.role).toBe('course_admin')
			expect(after.token_version).toBe(target.token_version + 1)
			expect((await targetSession.get('/learn/dashboard')).status).toBe(302)
			const audit = await auditRowsFor(stack.db, acme.id, target.id)
			// Beside the course assignment's row (decision 0026).
			expect(audit.find((a) => a.action === 'user.role_changed')).toMatchObject({
				action: 'user.role_changed',
				actor_user_id: user('acme:admin@acme.test').id,
				metadata: { from: 'student', to: 'course_admin' },
			})

			const refused = await admin.post(`/admin/users/${target.id}`, {
				intent: 'change-role',
				confirmed: 'yes',
				role: 'super_admin',
			})
			expect(refused.status).toBe(400)
			expect(refused.text).toContain('Choose student, course admin or tenant admin')
			expect((await findUserById(stack.db, target.id))!.role).toBe('course_admin')
		})

		it('deactivates (signing the user out and refusing sign-in), reactivates and forces sign-out', async () => {
			const target = await newUser('student')
			const admin = await signedIn('admin@acme.test')
			await admin.post(`/admin/users/${target.id}`, { intent: 'deactivate', confirmed: 'yes' })
			const off = (await findUserById(stack.db, target.id))!
			expect(off.deactivated_at).not.toBeNull()
			expect(off.token_version).toBe(target.token_version + 1)
			expect(
				(await stack.browser(ACME).post('/learn/sign-in', { email: target.email, password: DEMO_PASSWORD })).status,
			).toBe(403)
			await admin.post(`/admin/users/${target.id}`, { intent: 'reactivate' })
			expect((await findUserById(stack.db, target.id))!.deactivated_at).toBeNull()
			const again = await signedIn(target.email)
			await admin.post(`/admin/users/${target.id}`, { intent: 'force-sign-out', confirmed: 'yes' })
			expect((await again.get('/learn/dashboard')).status).toBe(302)
			const actions = (await auditRowsFor(stack.db, acme.id, target.id)).map((a) => a.action)
			expect(actions.sort()).toEqual(['user.deactivated', 'user.reactivated', 'user.signed_out'])
			// No one can deactivate or demote themselves.
			const self = user('acme:admin@acme.test')
			expect((await admin.post(`/admin/users/${self.id}`, { intent: 'deactivate', confirmed: 'yes' })).status).toBe(400)
		})

		it('sends a verification email and a password-reset link', async () => {
			const target = await createUser(stack.db, {
				tenant_id: acme.id,
				email: 'unverified-admin-test@acme.test',
				name: 'U',
				role: 'student',
				password_hash: passwordHash,
			})
			const admin = await signedIn('admin@acme.test')
			await admin.post(`/admin/users/${target.id}`, { intent: 'resend-verification' })
			expect(linkIn(await stack.mail.waitFor(target.email), '/learn/verify/')).toMatch(/^\/learn\/verify\//)
			await admin.post(`/admin/users/${target.id}`, { intent: 'send-reset' })
			expect(linkIn(await stack.mail.waitFor(target.email, 1), '/learn/reset/')).toMatch(/^\/learn\/reset\//)
		})

		it('lists, searches and filters users', async () => {
			const admin = await signedIn('admin@acme.test')
			const all = await admin.get('/admin/users')
			expect(all.text).toContain('learner@acme.test')
			expect(all.text).not.toContain('learner@globex.test')
			const search = await admin.get('/admin/users?q=NEWBIE')
			expect(search.text).toContain('newbie@acme.test')
			expect(search.text).not.toContain('learner@acme.test')
			const deactivated = await admin.get('/admin/users?status=deactivated')
			expect(deactivated.text).toContain('gone@acme.test')
			expect(deactivated.text).not.toContain('newbie@acme.test')
			const admins = await admin.get('/admin/users?role=course_admin')
			expect(admins.text).toContain('author@acme.test')
			expect((await admin.get('/admin/users?role=bogus&page=-3')).status).toBe(200)
		})

		it('pages through users with next, previous and first-page links', async () => {
			for (let i = 0; i < 55; i++) await newUser('student')
			const admin = await signedIn('admin@acme.test')
			const ids = (html: string) =>
				[...html.matchAll(/href="\/admin\/users\/([^"/]+)"/g)]
					.map((m) => m[1])
					.filter((id) => id !== 'invite' && id !== 'invitations')
			const link = (html: string, label: string) => {
				const found = new RegExp(`<a href="([^"]*)">${label}</a>`).exec(html)?.[1]
				return found ? (found.startsWith('?') ? `/admin/users${found}` : found).replaceAll('&amp;', '&') : null
			}
			const first = await admin.get('/admin/users')
			expect(ids(first.text)).toHaveLength(50)
			expect(link(first.text, '← Previous')).toBeNull()
			const nextUrl = link(first.text, 'Next →')!
			expect(nextUrl).toMatch(/^\/admin\/users\?after=/)
			const second = await admin.get(nextUrl)
			expect(second.status).toBe(200)
			expect(ids(second.text).length).toBeGreaterThan(0)
			expect(ids(second.text).some((id) => ids(first.text).includes(id))).toBe(false)
			expect(link(second.text, '« First page')).toBe('/admin/users')
			const back = await admin.get(link(second.text, '← Previous')!)
			expect(ids(back.text)).toEqual(ids(first.text))
		})

		it('finds users by any part of their email or name, following renames and address changes', async () => {
			const admin = await signedIn('admin@acme.test')
			const target = await createUser(stack.db, {
				tenant_id: acme.id,
				email: 'zebra.crossing@acme.test',
				name: 'Quentin Quokka',
				role: 'student',
				password_hash: passwordHash,
			})
			const found = async (q: string) =>
				(await admin.get(`/admin/users?q=${encodeURIComponent(q)}`)).text.includes(`/admin/users/${target.id}`)
			// Substrings in the middle, any case; two letters still search (without the index).
			expect(await found('RA.CROSS')).toBe(true)
			expect(await found('tin quo')).toBe(true)
			expect(await found('qu')).toBe(true)
			expect(await found('"quokka"')).toBe(false)
			await updateUser(stack.db, target.id, { name: 'Rita Renamed', email: 'moved-away@acme.test' })
			expect(await found('Quokka')).toBe(false)
			expect(await found('crossing')).toBe(false)
			expect(await found('renamed')).toBe(true)
			expect(await found('ved-awa')).toBe(true)
			// Another tenant's user with the same words is not listed.
			const globex = (await findTenantBySlug(stack.db, 'globex'))!
			const other = await createUser(stack.db, {
				tenant_id: globex.id,
				email: 'renamed@globex.test',
				name: 'Rita Renamed',
				role: 'student',
				password_hash: passwordHash,
			})
			expect((await admin.get('/admin/users?q=renamed')).text).not.toContain(other.id)
		})

		it('invites with a role, requiring a course for a course admin', async () => {
			const admin = await signedIn('admin@acme.test')
			const missing = await admin.post('/admin/users/invite', {
				email: 'new-author@acme.test',
				role: 'course_admin',
				course_slug: '',
			})
			expect(missing.status).toBe(400)
			expect(missing.text).toContain('A course admin needs a course')
			const unknown = await admin.post('/admin/users/invite', {
				email: 'new-author@acme.test',
				role: 'course_admin',
				course_slug: 'draft-course',
			})
			expect(unknown.text).toContain('Choose a published course')
			const sent = await admin.post('/admin/users/invite', {
				email: 'new-author@acme.test',
				role: 'course_admin',
				course_slug: 'intro-to-web',
			})
			expect(sent.status).toBe(302)
			const mail = await stack.mail.waitFor('new-author@acme.test')
			const link = linkIn(mail, '/invite/')
			const [row] = await stack.db.orm
				.select()
				.from(stack.db.t.invitations)
				.where(eq(stack.db.t.invitations.email, 'new-author@acme.test'))
			expect(row).toMatchObject({ role: 'course_admin', course_slug: 'intro-to-web', tenant_id: acme.id })
			expect(link).not.toContain(row.token_hash)
			expect(row.expires_at.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000)
			expect((await auditRowsFor(stack.db, acme.id, row.id))[0].action).toBe('invitation.sent')
			// The invitee reads the course's title, not its slug.
			const page = await stack.request(ACME, link)
			expect(load(page.text)('main p').first().text()).toContain('Introduction to the Web')
		})

		it('speaks of the invitee on an empty form, and says so when the address already has an account', async () => {
			const admin = await signedIn('admin@acme.test')
			const empty = await admin.post('/admin/users/invite', { email: '', role: 'student' })
			expect(empty.status).toBe(400)
			expect(empty.text).toContain('Enter the email address of the person you are inviting')
			expect(empty.text).not.toContain('Enter your email address')
			const member = await admin.post('/admin/users/invite', {
				email: 'learner@acme.test',
				role: 'course_admin',
				course_slug: 'intro-to-web',
			})
			expect(member.status).toBe(302)
			const $ = load((await admin.get(String(member.headers.location))).text)
			expect($('[role="status"], .notice').text()).toContain(
				'learner@acme.test already has an account on this site. They were sent an invitation to the new role',
			)
			expect((await findUserById(stack.db, user('acme:learner@acme.test').id))!.role).toBe('student')
		})
	})

	describe('courses', () => {
		it('shows roster, results and per-entry analytics, and exports CSV', async () => {
			const learner = await newUser('student')
			// A name that a spreadsheet would run as a formula.
			await stack.db.orm
				.update(stack.db.t.users)
				.set({ name: '=HYPERLINK("x")' })
				.where(eq(stack.db.t.users.id, learner.id))
			const b = await signedIn(learner.email)
			await b.post('/learn/course/intro-to-web/enroll', {})
			await b.post('/learn/course/intro-to-web/entry/what-is-http', { intent: 'complete' })
			await b.post('/learn/course/intro-to-web/entry/html-forms', { intent: 'complete' })
			await b.post('/learn/course/intro-to-web/entry/basics-quiz', {
				intent: 'submit-quiz',
				'q:q-method': 'post',
				'q:q-nojs': 'true',
				'q:q-element': 'div',
			})

			const author = await signedIn('author@acme.test')
			const page = await author.get('/admin/courses/intro-to-web/dashboard')
			expect(page.status).toBe(200)
			expect(page.text).toContain(learner.email)
			expect(page.text).toMatch(/67% \(1 attempt\)/)
			expect(page.text).toContain('#1: 1')

			const csv = await author.get('/admin/courses/intro-to-web/export')
			expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
			expect(csv.headers['content-disposition']).toBe('attachment; filename="intro-to-web-roster.csv"')
			const lines = csv.text.trim().split('\r\n')
			expect(lines[0]).toBe(
				'"name","email","status","enrolled_at","completed_at","progress_percent","basics-quiz_best_score","basics-quiz_attempts","basics-quiz_complete","basics-quiz_passed","build-a-form_status","build-a-form_score","build-a-form_max_score","build-a-form_complete","build-a-form_passed","build-a-form_late","course_passed","average_percent","enrolled_at_utc","completed_at_utc","time_zone","basics-quiz_late"',
			)
			const mine = lines.find((l) => l.includes(learner.email))!
			expect(mine.startsWith(`"'=HYPERLINK(""x"")","${learner.email}","active",`)).toBe(true)
			// Then the course result (decision 0037): not passed, and the average of the quiz's 67 and the assignment's 0.
			expect(mine).toMatch(/,"40","67","1","no","no","not_submitted",,,"no",,,"no","34",/)
			// Dates on the admin's wall clock (the tenant's zone, UTC here), the instant for machines after the result (decision 0055).
			expect(mine).toMatch(
				/,"active","\d{4}-\d\d-\d\d \d\d:\d\d:\d\d",,.*,"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",,"UTC","no"$/,
			)
			// Quoted, so a spreadsheet whose list separator is `;` does not split a name into a formula.
			await stack.db.orm.update(stack.db.t.users).set({ name: 'a;=1+1' }).where(eq(stack.db.t.users.id, learner.id))
			expect((await author.get('/admin/courses/intro-to-web/export')).text).toContain(`"a;=1+1","${learner.email}"`)
		})

		it('turns on sequential gating from the settings page', async () => {
			const admin = await signedIn('admin@acme.test')
			const before = (await auditRowsFor(stack.db, acme.id, 'intro-to-web')).length
			await admin.post('/admin/courses/intro-to-web/settings', { sequential: 'on' })
			const t = (await findTenantBySlug(stack.db, 'acme'))!
			expect(t.feature_flags_json).toMatchObject({ courses: { 'intro-to-web': { sequential: true } } })
			await admin.post('/admin/courses/intro-to-web/settings', {})
			expect((await findTenantBySlug(stack.db, 'acme'))!.feature_flags_json).toMatchObject({
				courses: { 'intro-to-web': { sequential: false } },
			})
			const audit = await auditRowsFor(stack.db, acme.id, 'intro-to-web')
			expect(audit.slice(0, audit.length - before).map((a) => a.action)).toEqual([
				'course.settings_changed',
				'course.settings_changed',
			])
		})

		it('assigns and revokes course admins; a revoked admin loses access at once', async () => {
			const helper = await newUser('course_admin')
			const admin = await signedIn('admin@acme.test')
			const student = await newUser('student')
			const refused = await admin.post('/admin/courses/advanced-css/admins', { intent: 'assign', email: student.email })
			expect(refused.text).toContain('Only course admins can be assigned')
			await admin.post('/admin/courses/advanced-css/admins', { intent: 'assign', email: helper.email })
			const b = await signedIn(helper.email)
			expect((await b.get('/admin/courses/advanced-css/dashboard')).status).toBe(200)
			await admin.post('/admin/courses/advanced-css/admins', { intent: 'revoke', confirmed: 'yes', userId: helper.id })
			const again = await signedIn(helper.email)
			expect((await again.get('/admin/courses/advanced-css/dashboard')).status).toBe(404)
			const rows = await stack.db.orm
				.select()
				.from(stack.db.t.course_admin_assignments)
				.where(
					and(
						eq(stack.db.t.course_admin_assignments.user_id, helper.id),
						eq(stack.db.t.course_admin_assignments.course_slug, 'advanced-css'),
					),
				)
			expect(rows).toHaveLength(0)
			expect((await auditRowsFor(stack.db, acme.id, helper.id)).map((a) => a.action).sort()).toEqual([
				'course.admin_assigned',
				'course.admin_revoked',
			])
		})
	})

	describe('tenants', () => {
		it('creates, suspends (503 at once, sessions ended, audited), activates and archives', async () => {
			const apex = await signedIn('root@platform.test', 'localhost')
			const bad = await apex.post('/admin/tenants', { intent: 'create', slug: 'Not OK!', name: '' })
			expect(bad.status).toBe(400)
			const created = await apex.post('/admin/tenants', {
				intent: 'create',
				slug: 'umbrella',
				name: 'Umbrella Learning',
				admin_email: 'head@umbrella.test',
			})
			expect(created.headers.location).toBe('/admin/tenants?notice=created')
			expect(
				(
					await apex.post('/admin/tenants', {
						intent: 'create',
						slug: 'umbrella',
						name: 'Again',
						admin_email: 'head@umbrella.test',
					})
				).status,
			).toBe(409)
			const umbrella = (await findTenantBySlug(stack.db, 'umbrella'))!
			const member = await newUser('student', umbrella)
			const session = await signedIn(member.email, 'umbrella.localhost')

			await apex.post('/admin/tenants', {
				intent: 'status',
				confirmed: 'yes',
				tenantId: umbrella.id,
				status: 'suspended',
			})
			expect((await stack.request('umbrella.localhost', '/learn')).status).toBe(503)
			expect((await findUserById(stack.db, member.id))!.token_version).toBe(member.token_version + 1)
			await apex.post('/admin/tenants', { intent: 'status', confirmed: 'yes', tenantId: umbrella.id, status: 'active' })
			expect((await session.get('/learn/dashboard')).status).toBe(302)
			expect((await stack.request('umbrella.localhost', '/learn')).status).toBe(200)
			await apex.post('/admin/tenants', {
				intent: 'status',
				confirmed: 'yes',
				tenantId: umbrella.id,
				status: 'archived',
			})
			expect((await stack.request('umbrella.localhost', '/learn')).status).toBe(404)
			const audit = await auditRowsFor(stack.db, umbrella.id, umbrella.id)
			expect(audit.map((a) => a.action).sort()).toEqual([
				'tenant.activated',
				'tenant.archived',
				'tenant.created',
				'tenant.suspended',
			])
			expect(audit.every((a) => a.actor_user_id === user('platform:root@platform.test').id)).toBe(true)
		})
	})

	describe('impersonation', () => {
		it('starts and stops only for a super_admin on the tenant host, with a signed cookie and audit rows', async () => {
			const target = user('acme:newbie@acme.test')
			expect((await stack.browser(ACME).post('/api/admin/impersonate/start', { userId: target.id })).status).toBe(401)
			const admin = await signedIn('admin@acme.test')
			expect((await admin.post('/api/admin/impersonate/start', { userId: target.id })).status).toBe(403)
			const { apex, b } = await superOn(acme)
			expect((await apex.post('/api/admin/impersonate/start', { userId: target.id })).status).toBe(400)
			expect(
				(await b.post('/api/admin/impersonate/start', { userId: user('globex:learner@globex.test').id })).status,
			).toBe(404)

			const start = await b.post('/api/admin/impersonate/start', { userId: target.id })
			expect(start.status).toBe(303)
			expect(start.headers.location).toBe('/learn/dashboard')
			const cookies = String(start.headers['set-cookie'])
			expect(cookies).toMatch(/__impersonator_uid=[^;]+;.*HttpOnly/)
			const dashboard = await b.get('/learn/dashboard')
			expect(dashboard.text).toContain('Noah Newbie')
			expect(dashboard.text).toContain('Stop impersonating')

			const stop = await b.post('/api/admin/impersonate/stop', {})
			expect(stop.headers.location).toBe(`/admin/users/${target.id}`)
			expect(b.jar.has('__impersonator_uid')).toBe(false)
			expect((await b.get('/admin')).status).toBe(200)

			const rows = await auditRowsFor(stack.db, acme.id, target.id)
			const root = user('platform:root@platform.test').id
			expect(
				rows
					.filter((r) => r.action.startsWith('auth.impersonate'))
					.map((r) => [r.action, r.actor_user_id, r.tenant_id]),
			).toEqual([
				['auth.impersonate.stop', root, acme.id],
				['auth.impersonate.start', root, acme.id],
			])
		})

		it('refuses a stop without the signed cookie, or with a forged one', async () => {
			const b: Browser = await signedIn('learner@acme.test')
			expect((await b.post('/api/admin/impersonate/stop', {})).status).toBe(403)
			b.jar.set('__impersonator_uid', user('platform:root@platform.test').id)
			expect((await b.post('/api/admin/impersonate/stop', {})).status).toBe(403)
			expect((await b.get('/admin')).status).toBe(403)
		})
	})

	it('filters the audit log and scopes it to the tenant', async () => {
		const admin = await signedIn('admin@acme.test')
		const page = await admin.get('/admin/audit?action=user.')
		expect(page.status).toBe(200)
		expect(page.text).toContain('user.role_changed')
		expect(page.text).not.toContain('tenant.created')
		const apex = await signedIn('root@platform.test', 'localhost')
		expect((await apex.get('/admin/audit?action=tenant.')).text).toContain('tenant.created')
	})

	it('names who did what to whom in the audit log and on the admin home, and filters by an actor’s email', async () => {
		const admin = await signedIn('admin@acme.test')
		const target = await newUser('student')
		expect(
			(await admin.post(`/admin/users/${target.id}`, { intent: 'change-role', confirmed: 'yes', role: 'tenant_admin' }))
				.status,
		).toBe(302)
		const cells = async (path: string) => {
			const $ = load((await admin.get(path)).text)
			return $('tbody tr')
				.toArray()
				.map((tr) =>
					$(tr)
						.find('td')
						.toArray()
						.map((td) => $(td).text()),
				)
		}
		const rows = await cells(`/admin/audit?actor=${encodeURIComponent('ADMIN@acme.test')}&action=user.role_changed`)
		const row = rows.find((r) => r[3]?.includes(target.email))
		// The action in words beside its code (the filter takes codes); metadata as labelled fields, not JSON
		expect(row?.[1]).toBe('Role changed user.role_changed')
		expect(row?.[2]).toBe('Ada Admin <admin@acme.test>')
		expect(row?.[3]).toBe(`User ${target.name} <${target.email}>`)
		expect(row?.[4]).not.toMatch(/[{}"]/)
		expect(row?.[4]).toBe('FromStudentToTenant admin')
		// Only that actor's rows; another tenant's address names nobody here.
		expect(rows.every((r) => r[2] === 'Ada Admin <admin@acme.test>')).toBe(true)
		expect(await cells('/admin/audit?actor=admin%40globex.test')).toEqual([])
		expect(await cells('/admin/audit?actor=nobody%40acme.test')).toEqual([])
		const $ = load((await admin.get('/admin')).text)
		expect($('ul.activity li').first().text()).toContain(
			`Ada Admin <admin@acme.test> · Role changed user.role_changed · User ${target.name}`,
		)
	})

	it('asks before a destructive action and does nothing until it is confirmed', async () => {
		const admin = await signedIn('admin@acme.test')
		const asks = async (path: string, form: Record<string, string>, question: string) => {
			const res = await admin.post(path, form)
			expect(res.status, JSON.stringify(form)).toBe(200)
			const $ = load(res.text)
			const step = $('[role="alert"]')
			expect(step.text(), JSON.stringify(form)).toContain(question)
			// The same fields again, with the confirmation: a plain form, no script needed.
			const sent = Object.fromEntries(
				step
					.find('form[method="post"] input[type="hidden"]')
					.toArray()
					.map((el) => [$(el).attr('name'), $(el).attr('value')]),
			)
			expect(sent).toEqual({ ...form, confirmed: 'yes' })
		}
		const tenantAdmin = await newUser('tenant_admin')
		const path = `/admin/users/${tenantAdmin.id}`
		await asks(path, { intent: 'deactivate' }, `Deactivate ${tenantAdmin.name}?`)
		await asks(path, { intent: 'force-sign-out' }, `Sign ${tenantAdmin.name} out on every device?`)
		await asks(
			path,
			{ intent: 'change-role', role: 'student' },
			`Change ${tenantAdmin.name} from tenant admin to student?`,
		)
		const unchanged = (await findUserById(stack.db, tenantAdmin.id))!
		expect([unchanged.deactivated_at, unchanged.role, unchanged.token_version]).toEqual([
			null,
			'tenant_admin',
			tenantAdmin.token_version,
		])
		// A wrong confirmation value is no confirmation.
		expect((await admin.post(path, { intent: 'deactivate', confirmed: 'no' })).status).toBe(400)
		expect((await findUserById(stack.db, tenantAdmin.id))!.deactivated_at).toBeNull()
		// A promotion asks too (issue 40), and changes nothing until it is confirmed.
		const student = await newUser('student')
		const promotion = { intent: 'change-role', role: 'course_admin', course_slug: 'intro-to-web' }
		await asks(`/admin/users/${student.id}`, promotion, `Change ${student.name} from student to course admin?`)
		expect((await findUserById(stack.db, student.id))!.role).toBe('student')
		expect((await admin.post(`/admin/users/${student.id}`, { ...promotion, confirmed: 'yes' })).status).toBe(302)
		expect((await findUserById(stack.db, student.id))!.role).toBe('course_admin')
		expect((await admin.post(path, { intent: 'deactivate', confirmed: 'yes' })).status).toBe(302)
		expect((await findUserById(stack.db, tenantAdmin.id))!.deactivated_at).not.toBeNull()

		const assigned = user('acme:author@acme.test')
		await asks(
			'/admin/courses/intro-to-web/admins',
			{ intent: 'revoke', userId: assigned.id },
			`Stop ${assigned.name} administering this course?`,
		)
		expect(
			(await admin.post('/admin/courses/intro-to-web/admins', { intent: 'revoke', userId: 'nobody' })).status,
		).toBe(404)
		const apex = await signedIn('root@platform.test', 'localhost')
		for (const status of ['suspended', 'archived']) {
			const res = await apex.post('/admin/tenants', { intent: 'status', tenantId: globex.id, status })
			expect(res.status).toBe(200)
			expect(load(res.text)('[role="alert"]').text()).toContain('Globex')
		}
		expect((await findTenantBySlug(stack.db, 'globex'))!.status).toBe('active')
	})

	it('rate-limits admin mutations with 429', async () => {
		const admin = await signedIn('admin@globex.test', 'globex.localhost')
		const target = await newUser('student', globex)
		const answers = []
		for (let i = 0; i < 61; i++)
			answers.push(
				(await admin.post(`/admin/users/${target.id}`, { intent: 'force-sign-out', confirmed: 'yes' })).status,
			)
		expect(answers.slice(0, 60).every((s) => s === 302)).toBe(true)
		expect(answers[60]).toBe(429)
	})

	it('starts every admin action the same way (decision 0060): the limit counts before the person or course is looked up, and every page shows its 429', async () => {
		const tenantAdmin = await newUser('tenant_admin')
		const admin = await signedIn(tenantAdmin.email)
		const learner = await newUser('student')
		await putEnrollment(stack.db, { tenantId: acme.id, userId: learner.id }, 'intro-to-web', 'active')
		// Sixty posts naming nobody, on the person's page and their erasure: each 404, and each counted, as a
		// post for an unknown course always was.
		for (let i = 0; i < 30; i++) {
			expect((await admin.post('/admin/users/nobody', { intent: 'force-sign-out', confirmed: 'yes' })).status).toBe(404)
			expect((await admin.post('/admin/users/nobody/erase', { intent: 'erase' })).status).toBe(404)
		}
		const course = '/admin/courses/intro-to-web'
		const posts: Array<[string, Record<string, string>]> = [
			[`/admin/users/${learner.id}`, { intent: 'force-sign-out', confirmed: 'yes' }],
			[`/admin/users/${learner.id}/erase`, { intent: 'erase' }],
			['/admin/users', { intent: 'resend-verification', userId: learner.id }],
			['/admin/users/invite', { intent: 'one', email: 'limited@acme.test', role: 'student' }],
			['/admin/users/invitations', { intent: 'resend', id: 'nobody' }],
			['/admin/courses', { intent: 'invite-author', email: 'limited@acme.test' }],
			[`${course}/admins`, { intent: 'assign', email: learner.email }],
			[`${course}/announce`, { subject: 'Limited', body: 'Limited' }],
			[`${course}/certificates`, { intent: 'revoke', id: 'nobody' }],
			[`${course}/enroll`, { intent: 'emails', emails: learner.email }],
			[`${course}/settings`, {}],
			[`${course}/submissions`, { intent: 'watch', watch: 'on' }],
			[`${course}/learners/${learner.id}`, { intent: 'reopen', entry: 'build-a-form', reason: 'Limited' }],
		]
		for (const [path, form] of posts) {
			const res = await admin.post(path, form)
			expect(res.status, path).toBe(429)
			expect(Number(res.headers['retry-after']), path).toBeGreaterThan(0)
			expect(load(res.text)('.notice-error').text(), path).toContain('Too many attempts')
		}
		expect(await auditRowsFor(stack.db, acme.id, learner.id)).toEqual([])
	})

	describe('readable records (decision 0024): what an admin reads, in their language', () => {
		const COURSE = 'intro-to-web'
		const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
		const view = async (b: Browser, path: string) => {
			const res = await b.get(path)
			expect(res.status, path).toBe(200)
			return { html: res.text, $: load(res.text), rows: auditLogRows(res.text) }
		}
		const only = (rows: AuditLogRow[], code: string, where: (r: AuditLogRow) => boolean = () => true) => {
			const found = rows.filter((r) => r.code === code && where(r))
			expect(found, code).toHaveLength(1)
			return found[0]
		}

		/** One admin's role changes, enrollment, cancellation, course settings and invitation, each audited. */
		async function everydayActions(admin: Browser, learnerId: string, learnerEmail: string, invitee: string) {
			const user = `/admin/users/${learnerId}`
			const posts: Array<[string, Record<string, string>]> = [
				[user, { intent: 'change-role', confirmed: 'yes', role: 'course_admin', course_slug: COURSE }],
				[user, { intent: 'change-role', confirmed: 'yes', role: 'student' }],
				[`/admin/courses/${COURSE}/enroll`, { intent: 'emails', emails: learnerEmail }],
				[user, { intent: 'cancel-enrollment', courseSlug: COURSE, confirmed: 'yes' }],
				[`/admin/courses/${COURSE}/settings`, { sequential: 'on' }],
				[`/admin/courses/${COURSE}/settings`, {}],
				['/admin/users/invite', { email: invitee, role: 'course_admin', course_slug: COURSE }],
			]
			for (const [path, form] of posts)
				expect((await admin.post(path, form)).status, `${path} ${JSON.stringify(form)}`).toBeLessThan(400)
		}

		it('names each action in words, beside its code, and its details as labelled readable values', async () => {
			const adminUser = await newUser('tenant_admin', acme, { name: 'Rita Records' })
			const learner = await newUser('student', acme, { name: 'Lena Learner' })
			const admin = await signedIn(adminUser.email)
			const invitee = `records-invitee-${dialect}@acme.test`
			await everydayActions(admin, learner.id, learner.email, invitee)

			const { $, rows } = await view(admin, `/admin/audit?actor=${encodeURIComponent(adminUser.email)}`)
			const person = `${learner.name} <${learner.email}>`
			const title = 'Introduction to the Web'
			expect(rows.every((r) => r.actor === `Rita Records <${adminUser.email}>`)).toBe(true)

			const promoted = only(rows, 'user.role_changed', (r) => r.details.To === 'Course admin')
			expect(promoted).toEqual({
				action: 'Role changed user.role_changed',
				code: 'user.role_changed',
				actor: `Rita Records <${adminUser.email}>`,
				target: `User ${person}`,
				details: { From: 'Student', To: 'Course admin' },
			})
			expect(only(rows, 'user.role_changed', (r) => r.details.To === 'Student').details).toEqual({
				From: 'Course admin',
				To: 'Student',
				'No longer course admin of': title,
			})
			const assigned = only(rows, 'course.admin_assigned')
			expect([assigned.action, assigned.target, assigned.details]).toEqual([
				'Made course admin course.admin_assigned',
				`User ${person}`,
				{ Course: title },
			])
			const enrolled = only(rows, 'enrollment.admin_enrolled')
			expect([enrolled.action, enrolled.target, enrolled.details]).toEqual([
				'Enrolled by an admin enrollment.admin_enrolled',
				`Enrollment ${person}`,
				{ Course: title },
			])
			const cancelled = only(rows, 'enrollment.cancelled')
			expect([cancelled.action, cancelled.details]).toEqual([
				'Enrollment cancelled enrollment.cancelled',
				{ Course: title, From: 'active' },
			])
			const settings = rows.filter((r) => r.code === 'course.settings_changed')
			expect(settings.map((r) => [r.action, r.target, r.details.Sequential]).sort()).toEqual([
				['Course settings changed course.settings_changed', `Course ${title}`, 'no'],
				['Course settings changed course.settings_changed', `Course ${title}`, 'yes'],
			])
			const invited = only(rows, 'invitation.sent')
			expect([invited.action, invited.target, invited.details]).toEqual([
				'Invitation sent invitation.sent',
				`Invitation ${invitee}`,
				{ Email: invitee, Role: 'Course admin', Course: title },
			])
			// The course title carries the language it was served in.
			expect($(`tbody span[lang="en"]:contains("${title}")`).length).toBeGreaterThan(0)
			const text = $('main').text()
			expect(text).not.toMatch(UUID)
			expect(text).not.toContain('{"')
			expect(text).not.toContain('courseSlug')

			// The admin home's recent activity: the same words and fields.
			const home = await view(admin, '/admin')
			const items = home.$('ul.activity > li').toArray()
			const demoted = items.find((li) => home.$(li).text().includes('No longer course admin of'))
			expect(home.$(demoted).text()).toContain(
				`Rita Records <${adminUser.email}> · Role changed user.role_changed · User ${person}`,
			)
			expect(
				home
					.$(demoted)
					.find('dd')
					.toArray()
					.map((dd) => home.$(dd).text()),
			).toEqual(['Course admin', 'Student', title])
			expect(home.$('ul.activity').text()).not.toMatch(UUID)
			expect(home.$('ul.activity').text()).not.toContain('{"')
		})

		it('says it in the admin’s language: Spanish words, names and the Spanish course title', async () => {
			const adminUser = await newUser('tenant_admin', acme, { name: 'Rita Registro', locale: 'es' })
			const learner = await newUser('student', acme, { name: 'Lena Lectora' })
			const admin = await signedIn(adminUser.email)
			await everydayActions(admin, learner.id, learner.email, `records-invitado-${dialect}@acme.test`)

			const { $, rows } = await view(admin, `/es/admin/audit?actor=${encodeURIComponent(adminUser.email)}`)
			const title = 'Introducción a la Web'
			const promoted = only(rows, 'user.role_changed', (r) => r.details.Después === 'Administrador de curso')
			expect([promoted.action, promoted.target, promoted.details]).toEqual([
				'Rol cambiado user.role_changed',
				`Usuario ${learner.name} <${learner.email}>`,
				{ Antes: 'Estudiante', Después: 'Administrador de curso' },
			])
			expect(only(rows, 'enrollment.cancelled').details).toEqual({ Curso: title, Antes: 'activa' })
			expect(
				rows
					.filter((r) => r.code === 'course.settings_changed')
					.map((r) => r.details.Secuencial)
					.sort(),
			).toEqual(['no', 'sí'])
			expect(only(rows, 'invitation.sent').action).toBe('Invitación enviada invitation.sent')
			expect($(`tbody span[lang="es"]:contains("${title}")`).length).toBeGreaterThan(0)
			expect($('main').text()).not.toMatch(UUID)
		})

		it('shows stored values as inert text, cut to a readable length, and unknown codes as they are', async () => {
			const adminUser = await newUser('tenant_admin', acme, { name: 'Rita Hostile' })
			const learner = await newUser('student', acme, { name: '<script>alert("name")</script>' })
			await writeAudit(stack.db, {
				actorUserId: adminUser.id,
				action: 'user.deactivated',
				targetKind: 'user',
				targetId: learner.id,
				tenantId: acme.id,
				metadata: {
					note: '<img src=x onerror=alert(1)>',
					long: 'x'.repeat(5000),
					nested: { a: [1, true, '<b>bold</b>'], b: null },
					at: '2026-11-25T10:00:00.000Z',
					impersonatorId: adminUser.id,
					many: Array.from({ length: 50 }, (_, i) => i),
				},
			})
			await writeAudit(stack.db, {
				actorUserId: adminUser.id,
				// A row of an action this version does not write (an older one's): shown by its code.
				action: 'legacy.thing' as AuditAction,
				targetKind: 'widget',
				targetId: 'w-1',
				tenantId: acme.id,
				metadata: { whatever: 'value' },
			})
			const admin = await signedIn(adminUser.email)
			const { html, $, rows } = await view(admin, `/admin/audit?actor=${encodeURIComponent(adminUser.email)}`)
			for (const raw of ['<img src=x', '<b>bold', '<script>alert("name")', 'x'.repeat(201)])
				expect(html.includes(raw), raw).toBe(false)
			expect($('main img, main b, main script')).toHaveLength(0)

			const hostile = only(rows, 'user.deactivated')
			expect(hostile.action).toBe('Account deactivated user.deactivated')
			expect(hostile.target).toBe(`User <script>alert("name")</script> <${learner.email}>`)
			expect(hostile.details.note).toBe('<img src=x onerror=alert(1)>')
			expect(hostile.details.long).toBe(`${'x'.repeat(199)}…`)
			expect(hostile.details.nested).toBe('a: 1, yes, <b>bold</b>; b: —')
			expect(hostile.details.at).toMatch(/^Nov 25, 2026, 10:00\sAM UTC$/)
			expect(hostile.details.Impersonator).toBe(`Rita Hostile <${adminUser.email}>`)
			expect(hostile.details.many).toBe(`${Array.from({ length: 20 }, (_, i) => i).join(', ')} and 30 more`)
			// Keys the catalogue does not know are shown as stored, as code.
			expect(
				$('tbody dt code')
					.toArray()
					.map((c) => $(c).text()),
			).toEqual(expect.arrayContaining(['note', 'long', 'nested', 'at', 'many', 'whatever']))

			const legacy = only(rows, 'legacy.thing')
			expect([legacy.action, legacy.target, legacy.details]).toEqual([
				'legacy.thing',
				'widget w-1',
				{ whatever: 'value' },
			])
			expect($('main').text()).not.toContain('{"')

			const home = await view(admin, '/admin')
			for (const raw of ['<img src=x', '<b>bold', '<script>alert("name")', 'x'.repeat(201)])
				expect(home.html.includes(raw), raw).toBe(false)
			expect(home.$('ul.activity').text()).toContain('<img src=x onerror=alert(1)>')
		})
	})
})

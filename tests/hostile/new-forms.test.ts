/**
 * Hostile class: the forms issue 40 added (the users list's resend, a new tenant's first admin, the check-your-email resend). A GET where a POST is meant,
 * another tenant's user id, a leftover cookie after sign-out, and roles that may not act: each
 * changes nothing and mails nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { auditRowsFor, createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

describe.each(DIALECTS)('hostile posts to the new forms on %s', (dialect) => {
	let stack: Stack
	const hostile = hostileClass('new-forms', dialect)
	let acmeId: string
	let globexId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
		globexId = stack.seeded.tenants.globex.id
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	const unverified = (tenantId: string, email: string) =>
		hashPassword('a-long-enough-secret').then((password_hash) =>
			createUser(stack.db, { tenant_id: tenantId, email, name: 'Not Yet', role: 'student', password_hash }),
		)

	it('mails nobody for a resend that is not an admin’s post on this tenant', async () => {
		const own = await unverified(acmeId, `own-${dialect}@acme.test`)
		const foreign = await unverified(globexId, `foreign-${dialect}@globex.test`)
		const admin = await stack.signIn('admin@acme.test')
		const resend = { intent: 'resend-verification', userId: own.id }

		// A GET with the form's fields is the list, nothing more.
		const got = await admin.get(`/admin/users?${new URLSearchParams(resend)}`)
		hostile.check('a GET with the fields only lists', got.status === 200, `${got.status}`)

		// Another tenant's user, by its real id: 404, as their page is.
		const cross = await admin.post('/admin/users', { intent: 'resend-verification', userId: foreign.id })
		hostile.check('another tenant’s user id is 404', cross.status === 404, `${cross.status}`)
		const nul = await admin.post('/admin/users', { intent: 'resend-verification', userId: `${own.id}\u0000` })
		hostile.check('a NUL in the id is refused', nul.status === 400 || nul.status === 404, `${nul.status}`)

		// A learner and a course admin may not.
		const learner = await stack.signIn('learner@acme.test')
		const asLearner = await learner.post('/admin/users', resend)
		hostile.check('a learner is refused', asLearner.status === 403, `${asLearner.status}`)
		const author = await stack.signIn('author@acme.test')
		const asAuthor = await author.post('/admin/users', resend)
		hostile.check('a course admin is refused', asAuthor.status === 404, `${asAuthor.status}`)

		// The admin's cookie kept after signing out.
		const leftover = stack.browser(ACME)
		const signedIn = await stack.signIn('admin@acme.test')
		for (const [k, v] of signedIn.jar) leftover.jar.set(k, v)
		expect((await signedIn.post('/learn/sign-out', {})).status).toBe(302)
		const replayed = await leftover.post('/admin/users', resend)
		hostile.check(
			'a leftover cookie after sign-out does nothing',
			replayed.status === 302 && String(replayed.headers.location).startsWith('/learn/sign-in'),
			`${replayed.status} ${replayed.headers.location}`,
		)
		// Another site's page posting the form.
		const crossSite = await admin.post('/admin/users', resend, { origin: 'http://evil.test' })
		hostile.check('a cross-site post is refused', crossSite.status === 403, `${crossSite.status}`)

		await stack.settled()
		hostile.check('nobody was mailed', stack.mail.count(own.email) + stack.mail.count(foreign.email) === 0)
		const rows = [
			...(await auditRowsFor(stack.db, acmeId, own.id)),
			...(await auditRowsFor(stack.db, globexId, foreign.id)),
		]
		hostile.check('nothing was audited', rows.length === 0, rows.map((r) => r.action).join())
		expect(hostile.newFailures()).toEqual([])
	})

	it('creates no tenant and invites nobody for a creation that is not the platform admin’s post', async () => {
		const form = { intent: 'create', slug: `nope-${dialect}`, name: 'Nope', admin_email: `boss-${dialect}@nope.test` }
		const root = await stack.signIn('root@platform.test', 'localhost')
		const got = await root.get(`/admin/tenants?${new URLSearchParams(form)}`)
		hostile.check('a GET with the fields only lists', got.status === 200, `${got.status}`)
		const tenantAdmin = await stack.signIn('admin@acme.test')
		const asTenantAdmin = await tenantAdmin.post('/admin/tenants', form)
		hostile.check('a tenant admin is refused', asTenantAdmin.status === 403, `${asTenantAdmin.status}`)
		// The platform admin's cookie kept after signing out.
		const leftover = stack.browser('localhost')
		for (const [k, v] of root.jar) leftover.jar.set(k, v)
		expect((await root.post('/learn/sign-out', {})).status).toBe(302)
		const replayed = await leftover.post('/admin/tenants', form)
		hostile.check(
			'a leftover cookie after sign-out creates nothing',
			replayed.status === 302 && String(replayed.headers.location).startsWith('/learn/sign-in'),
			`${replayed.status} ${replayed.headers.location}`,
		)
		// Another tenant's address is just an address: a malformed one is refused with nothing created.
		const again = await stack.signIn('root@platform.test', 'localhost')
		const bad = await again.post('/admin/tenants', { ...form, admin_email: 'not an address' })
		hostile.check('a malformed first admin address is refused', bad.status === 400, `${bad.status}`)
		await stack.settled()
		const made = await findTenantBySlug(stack.db, form.slug)
		hostile.check('no tenant was created', made === null)
		hostile.check('nobody was mailed', stack.mail.count(form.admin_email) === 0)
		expect(hostile.newFailures()).toEqual([])
	})

	it('mails nobody for a check-your-email resend that is a GET, another tenant’s address or malformed', async () => {
		const email = `resend-${dialect}@acme.test`
		await unverified(acmeId, email)
		const visitor = stack.browser(ACME)
		// A GET with the form's fields is the sign-up form, nothing more.
		const got = await visitor.get(`/learn/sign-up?${new URLSearchParams({ intent: 'resend', email })}`)
		hostile.check('a GET with the fields shows the form', got.status === 200 && got.text.includes('name="password"'))
		// The same address posted on the other tenant's host: no account there, so nobody is mailed, and the
		// answer is the one any address gets.
		const globex = await stack.browser('globex.localhost').post('/learn/sign-up', { intent: 'resend', email })
		hostile.check('another tenant’s host answers as for anyone', globex.status === 200, `${globex.status}`)
		// Not an address, or no address: refused.
		for (const bad of ['not an address', '', `${email}\u0000`]) {
			const res = await visitor.post('/learn/sign-up', { intent: 'resend', email: bad })
			hostile.check(`a resend for ${JSON.stringify(bad)} is refused`, res.status === 400, `${res.status}`)
		}
		// A leftover session cookie of a signed-out learner changes nothing: the page answers as for a visitor.
		const learner = await stack.signIn('learner@acme.test')
		const leftover = stack.browser(ACME)
		for (const [k, v] of learner.jar) leftover.jar.set(k, v)
		await learner.post('/learn/sign-out', {})
		const replayed = await leftover.post('/learn/sign-up', { intent: 'resend', email: 'learner@acme.test' })
		hostile.check('a leftover cookie gets the visitor’s answer', replayed.status === 200, `${replayed.status}`)
		// A cross-site post is refused before anything is read.
		const crossSite = await visitor.post('/learn/sign-up', { intent: 'resend', email }, { origin: 'http://evil.test' })
		hostile.check('a cross-site post is refused', crossSite.status === 403, `${crossSite.status}`)
		await stack.settled()
		hostile.check('nobody was mailed', stack.mail.count(email) === 0, `${stack.mail.count(email)}`)
		expect(hostile.newFailures()).toEqual([])
	})
})

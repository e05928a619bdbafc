import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { auditRowsFor, findTenantBySlug } from '#tests/support/repository.ts'

// Decision 0053: a tenant's creation and each change of its status write a job (cms.provisionSite) in
// their own transaction; the job sends the CMS the tenant as it then is, and is retried while the CMS
// fails. The local content service (the default) answers it and does nothing; it takes no authors.
describe.each(DIALECTS)("a tenant's place in the CMS, from the app, on %s", (dialect) => {
	let stack: Stack
	beforeAll(async () => {
		stack = await startStack(dialect, { JOB_RETRY_DELAY_SECONDS: '1' })
	})
	afterAll(() => stack?.close())

	/** Waits for the content service to have been told `status` for `site` (the job ran). */
	async function told(site: string, status: string, ms = 15_000) {
		const deadline = Date.now() + ms
		for (;;) {
			const calls = stack.cms.provisioned.filter((c) => c.site === site)
			if (calls.at(-1)?.status === status) return calls
			if (Date.now() > deadline) throw new Error(`${site} was not provisioned as ${status}: ${JSON.stringify(calls)}`)
			await new Promise((r) => setTimeout(r, 50))
		}
	}

	it('provisions a new tenant through its job, and again on each change of status', async () => {
		const apex = await stack.signIn('root@platform.test', 'localhost')
		const created = await apex.post('/admin/tenants', {
			intent: 'create',
			slug: 'umbrella',
			name: 'Umbrella School',
			admin_email: `head-${dialect}@umbrella.test`,
		})
		expect(created.status).toBe(302)
		const calls = await told('umbrella', 'active')
		// With the tenant's time zone, the default UTC until its admins choose one (decision 0095).
		expect(calls).toEqual([{ site: 'umbrella', name: 'Umbrella School', status: 'active', timeZone: 'UTC' }])
		const tenant = (await findTenantBySlug(stack.db, 'umbrella'))!

		for (const status of ['suspended', 'active', 'archived'] as const) {
			const changed = await apex.post('/admin/tenants', {
				intent: 'status',
				tenantId: tenant.id,
				status,
				confirmed: 'yes',
			})
			expect(changed.status).toBe(302)
			await told('umbrella', status)
		}
		// A refused creation (the slug is taken) writes no job.
		const before = stack.cms.provisioned.length
		const taken = await apex.post('/admin/tenants', {
			intent: 'create',
			slug: 'umbrella',
			name: 'Another',
			admin_email: 'x@umbrella.test',
		})
		expect(taken.status).toBe(409)
		await stack.settled()
		expect(stack.cms.provisioned.length).toBe(before)
	})

	it("tells the CMS the tenant's time zone when its admins change it, once per change", async () => {
		const admin = await stack.signIn('admin@acme.test')
		const before = stack.cms.provisioned.filter((c) => c.site === 'acme').length
		for (const timeZone of ['America/New_York', 'Europe/Madrid']) {
			expect((await admin.post('/admin/settings', { intent: 'time-zone', timeZone })).status).toBe(302)
			const deadline = Date.now() + 15_000
			while (stack.cms.provisioned.filter((c) => c.site === 'acme').at(-1)?.timeZone !== timeZone) {
				if (Date.now() > deadline) throw new Error(`acme was not provisioned with ${timeZone}`)
				await new Promise((r) => setTimeout(r, 50))
			}
		}
		// The same zone again changes nothing, and tells the CMS nothing; a refused zone neither.
		expect((await admin.post('/admin/settings', { intent: 'time-zone', timeZone: 'Europe/Madrid' })).status).toBe(302)
		expect((await admin.post('/admin/settings', { intent: 'time-zone', timeZone: 'Mars/Olympus' })).status).toBe(400)
		await stack.settled()
		const calls = stack.cms.provisioned.filter((c) => c.site === 'acme').slice(before)
		expect(calls).toEqual([
			{ site: 'acme', name: 'Acme Academy', status: 'active', timeZone: 'America/New_York' },
			{ site: 'acme', name: 'Acme Academy', status: 'active', timeZone: 'Europe/Madrid' },
		])
		// The tenant is left as it was: UTC, its default.
		expect((await admin.post('/admin/settings', { intent: 'time-zone', timeZone: 'UTC' })).status).toBe(302)
		await stack.settled()
	})

	it('keeps the job while the content service fails, and provisions once it answers', async () => {
		const apex = await stack.signIn('root@platform.test', 'localhost')
		await fetch(`${stack.cms.url}/_control`, {
			method: 'POST',
			headers: { 'x-api-key': stack.env.CMS_API_UUID, 'content-type': 'application/json' },
			body: JSON.stringify({ mode: 'error' }),
		})
		try {
			// The tenant is made whatever the CMS says: the job carries the CMS's part.
			const created = await apex.post('/admin/tenants', {
				intent: 'create',
				slug: 'wayne',
				name: 'Wayne School',
				admin_email: `head-${dialect}@wayne.test`,
			})
			expect(created.status).toBe(302)
			await new Promise((r) => setTimeout(r, 1500))
			expect(stack.cms.provisioned.filter((c) => c.site === 'wayne')).toEqual([])
		} finally {
			await fetch(`${stack.cms.url}/_control`, {
				method: 'POST',
				headers: { 'x-api-key': stack.env.CMS_API_UUID, 'content-type': 'application/json' },
				body: JSON.stringify({ mode: 'ok' }),
			})
		}
		await told('wayne', 'active', 30_000)
	})

	it('lets tenant admins ask for an author, and says when the content service takes none', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const page = await admin.get('/admin/courses')
		expect(page.status).toBe(200)
		const form = load(page.text)('form[method="post"]')
		expect(form.find('input[name="email"][type="email"]').length).toBe(1)
		expect(form.find('input[name="intent"]').val()).toBe('inviteAuthor')

		// The local content service has no authors: the page says so, beside the form, and nothing is audited.
		const asked = await admin.post('/admin/courses', { intent: 'inviteAuthor', email: 'writer@acme.test' })
		expect(asked.status).toBe(409)
		expect(asked.text).toContain('The content service takes no authors for this school right now')
		const acme = (await findTenantBySlug(stack.db, 'acme'))!
		const audit = await auditRowsFor(stack.db, acme.id, acme.id)
		expect(audit.map((a) => a.action)).not.toContain('author.invited')

		for (const email of ['', 'not-an-address', 'a@b', 'x@y.test\r\nBcc: z@y.test'])
			expect((await admin.post('/admin/courses', { intent: 'inviteAuthor', email })).status, email).toBe(400)
		expect((await admin.post('/admin/courses', { intent: 'other', email: 'writer@acme.test' })).status).toBe(400)
		expect((await admin.post('/admin/courses', { email: 'writer@acme.test' })).status).toBe(400)
	})

	it('refuses the invitation to anyone but a tenant admin on their tenant', async () => {
		const form = { intent: 'inviteAuthor', email: 'writer@acme.test' }
		expect((await stack.browser('acme.localhost').post('/admin/courses', form)).status).toBe(302)
		expect((await (await stack.signIn('learner@acme.test')).post('/admin/courses', form)).status).toBe(403)
		expect((await (await stack.signIn('author@acme.test')).post('/admin/courses', form)).status).toBe(404)
		// The platform's host has no tenant to invite to.
		const apex = await stack.signIn('root@platform.test', 'localhost')
		expect((await apex.post('/admin/courses', form)).status).toBe(404)
	})
})

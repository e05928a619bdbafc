import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { STRAPI_URL, strapiAdmin, type StrapiAdmin } from '#tests/support/strapi.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'

// A tenant made in the app is made in the CMS by the app's job (decision 0053): PUT
// …/sites/<site>/authoring with the app's key gives it its site document, authors' role and media
// folder, once however often it is called; its admins invite authors through the same endpoint; a
// suspended or archived tenant's authors reach none of its documents or files, and its content is kept.
const API = process.env.CONTENT_SERVICE_URL!
const { CMS_API_UUID: KEY, CMS_PROJECT_UUID: PROJECT } = TEST_SECRETS
const COURSE = 'api::course.course'
const SITE_UID = 'api::site.site'
const site = `new-${Date.now().toString(36)}`
const PASSWORD = 'Authoring-new-2026'

const siteUrl = (s: string, project = PROJECT) => `${API}/projects/${encodeURIComponent(project)}/sites/${s}`
async function call(method: string, url: string, body?: unknown, key: string | null = KEY) {
	const res = await fetch(url, {
		method,
		headers: { ...(key === null ? {} : { 'x-api-key': key }), 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	})
	const text = await res.text()
	let json: any = null
	try {
		json = JSON.parse(text)
	} catch {
		json = text
	}
	return { status: res.status, body: json }
}
const provision = (body: unknown, s = site) => call('PUT', `${siteUrl(s)}/authoring`, body)
const invite = (email: string, s = site) => call('POST', `${siteUrl(s)}/authoring/invitations`, { email })
const siteDocument = (s = site) => call('GET', `${siteUrl(s)}/site?locale=en`)

describe("a new tenant's place in the CMS", () => {
	let root: StrapiAdmin
	let author: StrapiAdmin
	let courseId: string
	const email = `author-${site}@school.test`

	beforeAll(async () => {
		root = await strapiAdmin('root@platform.test')
	})

	/** What the platform's super admin sees of the site: its site documents, root folders and roles. */
	async function inventory() {
		const docs = await root.call('GET', `/content-manager/collection-types/${SITE_UID}?locale=en&pageSize=100`)
		const folders = await root.call('GET', '/upload/folders?pageSize=100')
		const roles = await root.call('GET', '/admin/roles')
		return {
			documents: (docs.body.results as any[]).filter((d) => d.key === site).length,
			folders: (folders.body.data as any[]).filter((f) => f.name === site && !f.parent).length,
			roles: (roles.body.data as any[]).filter((r) => r.name.endsWith(`uthors: ${site}`)).map((r) => r.name),
		}
	}

	it('is an unknown site before it is provisioned; provisioned twice, it has one site document, one folder and one role', async () => {
		const before = await siteDocument()
		expect(before.status).toBe(404)
		expect(before.body.error.message).toBe('Unknown site')

		const first = await provision({ name: 'New School', status: 'active' })
		expect(first.status, JSON.stringify(first.body)).toBe(200)
		expect(first.body.data.created).toEqual({ site: true, role: true, folder: true })
		const second = await provision({ name: 'New School', status: 'active' })
		expect(second.status).toBe(200)
		expect(second.body.data.created).toEqual({ site: false, role: false, folder: false })
		// Two at once (a retry overlapping the first attempt) make nothing more either.
		const both = await Promise.all([provision({ name: 'New School' }), provision({ name: 'New School' })])
		expect(both.map((a) => a.status)).toEqual([200, 200])

		expect(await inventory()).toEqual({ documents: 1, folders: 1, roles: [`Authors: ${site}`] })
		const served = await siteDocument()
		expect(served.status).toBe(200)
		expect(served.body.data.name).toBe('New School')
	})

	it('refuses a request without the key, with another key, of another project, or for a key that is not a tenant', async () => {
		const other = `other-${site}`
		const url = `${siteUrl(other)}/authoring`
		expect((await call('PUT', url, {}, null)).status).toBe(401)
		expect((await call('PUT', url, {}, '')).status).toBe(401)
		expect((await call('PUT', url, {}, KEY.toUpperCase())).status).toBe(401)
		expect((await call('PUT', url, {}, `${KEY}0`)).status).toBe(401)
		expect((await call('PUT', url, {}, KEY.slice(0, -1))).status).toBe(401)
		expect((await call('PUT', url, {}, TEST_SECRETS.CMS_WEBHOOK_SECRET)).status).toBe(401)
		expect((await call('POST', `${url}/invitations`, { email: 'x@y.test' }, null)).status).toBe(401)
		expect((await call('POST', `${siteUrl(site)}/authoring/invitations`, { email: 'x@y.test' }, 'nope')).status).toBe(
			401,
		)
		expect((await call('PUT', `${siteUrl(other, 'another-project')}/authoring`, {})).status).toBe(404)
		for (const bad of ['_apex', 'Acme', 'a_b', '-a', 'a-', 'acme%2Fx', 'acme%00', 'x'.repeat(64)])
			expect((await provision({}, bad)).status, bad).toBe(400)
		// A dot segment is resolved before it is sent: another path, which provisions nothing.
		expect((await provision({}, '%2e%2e')).status).toBe(405)
		expect((await provision({ status: 'deleted' }, other)).status).toBe(400)
		expect((await provision({ name: 7 }, other)).status).toBe(400)
		expect((await provision({ name: 'x'.repeat(121) }, other)).status).toBe(400)
		// No GET changes anything: it is not the provisioning endpoint.
		expect((await call('GET', url)).status).not.toBe(200)
		// None of those made the site.
		expect((await siteDocument(other)).status).toBe(404)
		expect((await invite('x@y.test', other)).status).toBe(409)
	})

	it('lets an invited author register and write a course in the new site, and only there', async () => {
		for (const bad of ['', 'not-an-address', 'a@b', `${'x'.repeat(250)}@a.test`])
			expect((await invite(bad)).status, bad).toBe(400)
		const invited = await invite(` ${email.toUpperCase()} `)
		expect(invited.status, JSON.stringify(invited.body)).toBe(201)
		expect(invited.body.data).toMatchObject({ email, state: 'invited' })
		const link = new URL(invited.body.data.registrationUrl)
		expect(link.pathname).toMatch(/\/auth\/register$/)
		const registrationToken = link.searchParams.get('registrationToken')!
		// Asked again (a lost link): the same invitation, not a second account.
		const again = await invite(email)
		expect(again.body.data.registrationUrl).toBe(invited.body.data.registrationUrl)

		const registered = await fetch(`${STRAPI_URL}/admin/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				registrationToken,
				userInfo: { firstname: 'New', lastname: 'Author', password: PASSWORD },
			}),
		})
		expect(registered.status).toBe(200)
		author = await strapiAdmin(email, PASSWORD)

		const created = await author.create(COURSE, { slug: `first-${site}`, title: 'Our first course', listed: true })
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		expect(created.body.data.site).toBe(site)
		courseId = created.body.data.documentId
		expect((await author.publish(COURSE, courseId)).status).toBe(200)
		const served = await call('GET', `${siteUrl(site)}/courses/first-${site}?locale=en`)
		expect(served.status).toBe(200)
		expect(served.body.data.title).toBe('Our first course')
		// Another site's course is not theirs to write.
		expect((await author.create(COURSE, { slug: `stray-${site}`, title: 'Stray', site: 'acme' })).status).toBe(403)

		// The site's folder is theirs; another site's is not in their library.
		const folder = await author.folder(site, null)
		const folders = await author.call('GET', '/upload/folders?pageSize=100')
		expect((folders.body.data as any[]).map((f) => f.name)).toEqual([site])
		const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
			.png()
			.toBuffer()
		expect((await author.upload(`${site}-logo.png`, png, 'image/png', folder)).status).toBe(201)

		// An address with an account already (Initech's author) gets the role, never a link.
		const existing = await invite('author@initech.test')
		expect(existing.status).toBe(200)
		expect(existing.body.data).toMatchObject({ state: 'added', registrationUrl: null })
	})

	it("keeps the tenant's time zone on its site: the app's, read by its authors, never changed by them", async () => {
		for (const bad of ['Mars/Olympus', 'europe/madrid', '+02:00', 'UTC+2', 7, '', 'Europe/' + 'x'.repeat(60)])
			expect((await provision({ timeZone: bad })).status, String(bad)).toBe(400)
		expect((await provision({ timeZone: 'Europe/Madrid' })).status).toBe(200)
		const ofSite = async (who: StrapiAdmin) =>
			((await who.list(SITE_UID)).body.results as any[]).find((d) => d.key === site)
		expect((await ofSite(root)).timeZone).toBe('Europe/Madrid')
		// The site's authors see it (the course form names it beside a due date) and cannot change it.
		const seen = await ofSite(author)
		expect(seen.timeZone).toBe('Europe/Madrid')
		await author.update(SITE_UID, seen.documentId, { timeZone: 'UTC', short_name: 'New' })
		expect((await ofSite(root)).timeZone).toBe('Europe/Madrid')
		// A provisioning without a zone leaves it; another zone replaces it.
		expect((await provision({ name: 'New School' })).status).toBe(200)
		expect((await ofSite(root)).timeZone).toBe('Europe/Madrid')
		expect((await provision({ timeZone: 'America/New_York' })).status).toBe(200)
		expect((await ofSite(root)).timeZone).toBe('America/New_York')
	})

	it.each(['suspended', 'archived'])(
		'locks the authors out of a %s tenant, keeps its content, and lets them back when it is active',
		async (status) => {
			expect((await provision({ status })).status).toBe(200)
			expect((await inventory()).roles).toEqual([`Suspended authors: ${site}`])
			expect((await author.list(COURSE)).status).toBe(403)
			expect((await author.get(COURSE, courseId)).status).toBe(403)
			expect((await author.update(COURSE, courseId, { title: 'Changed while suspended' })).status).toBe(403)
			expect((await author.unpublish(COURSE, courseId)).status).toBe(403)
			expect((await author.create(COURSE, { slug: `late-${site}`, title: 'Late', site })).status).toBe(403)
			expect((await author.remove(COURSE, courseId)).status).toBe(403)
			expect((await author.call('GET', '/upload/folders?pageSize=100')).status).toBe(403)
			expect((await author.call('GET', '/upload/files?pageSize=100')).status).toBe(403)
			// Initech's author, added to this site, keeps Initech and reaches nothing of this one.
			const initech = await strapiAdmin('author@initech.test')
			const listed = await initech.list(COURSE)
			expect(listed.status).toBe(200)
			expect((listed.body.results as any[]).every((c) => c.site === 'initech')).toBe(true)
			expect((await initech.get(COURSE, courseId)).status).toBe(403)
			// No new authors while it is not active.
			expect((await invite(`late-${site}@school.test`)).status).toBe(409)

			// Kept: the course is still there and still published, for the platform's editors.
			const kept = await root.get(COURSE, courseId)
			expect(kept.status).toBe(200)
			expect(kept.body.data.title).toBe('Our first course')

			expect((await provision({ status: 'active' })).status).toBe(200)
			expect((await inventory()).roles).toEqual([`Authors: ${site}`])
			expect((await author.get(COURSE, courseId)).status).toBe(200)
		},
	)
})

// The same from the app, against this Strapi: a super admin's new tenant is provisioned by the job,
// its suspension locks its role, and a tenant admin's invitation shows Strapi's registration link.
describe.each(DIALECTS)('tenants made in the app, in Strapi, on %s', (dialect) => {
	let stack: Stack
	const slug = `made-${dialect}-${Date.now().toString(36)}`
	beforeAll(async () => {
		stack = await startStack(dialect, {}, { contentServiceUrl: API, port: Number(process.env.AUTHORING_APP_PORT) })
	})
	afterAll(() => stack?.close())

	const until = async (probe: () => Promise<boolean>, what: string, ms = 15_000) => {
		const deadline = Date.now() + ms
		while (!(await probe())) {
			if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
			await new Promise((r) => setTimeout(r, 100))
		}
	}

	it('provisions the new tenant, and locks its authors when it is suspended', async () => {
		const apex = await stack.signIn('root@platform.test', 'localhost')
		const created = await apex.post('/admin/tenants', {
			intent: 'create',
			slug,
			name: 'Made in the app',
			admin_email: `head@${slug}.test`,
		})
		expect(created.status).toBe(302)
		await until(async () => (await siteDocument(slug)).status === 200, 'the site document')
		expect((await siteDocument(slug)).body.data.name).toBe('Made in the app')
		const root = await strapiAdmin('root@platform.test')
		const roleNames = async () =>
			((await root.call('GET', '/admin/roles')).body.data as any[]).map((r) => r.name).filter((n) => n.endsWith(slug))
		expect(await roleNames()).toEqual([`Authors: ${slug}`])

		const tenant = (await findTenantBySlug(stack.db, slug))!
		const suspended = await apex.post('/admin/tenants', {
			intent: 'status',
			tenantId: tenant.id,
			status: 'suspended',
			confirmed: 'yes',
		})
		expect(suspended.status).toBe(302)
		await until(async () => (await roleNames())[0] === `Suspended authors: ${slug}`, 'the suspended role')
	})

	it("shows a tenant admin Strapi's registration link for a new author", async () => {
		const admin = await stack.signIn('admin@acme.test')
		const email = `writer-${slug}@acme.test`
		const asked = await admin.post('/admin/courses', { intent: 'inviteAuthor', email })
		expect(asked.status).toBe(200)
		expect(asked.text).toContain(`Invitation made for ${email}`)
		expect(asked.text).toMatch(/href="http[^"]+\/auth\/register\?registrationToken=[^"]+"/)
	})
})

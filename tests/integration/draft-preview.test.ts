import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProgress } from '#db/learning.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

// Issue 40: staff preview a course before it is published (spec: ?preview=1 for an assigned course_admin,
// tenant_admin and super_admin; read-only, with a banner), learners and visitors still get 404.
const ACME = 'acme.localhost'
const DRAFT = '/learn/course/draft-course'
const DRAFT_ENTRY = `${DRAFT}/entry/secret-lesson`

describe.each(DIALECTS)('staff previews of drafts on %s', (dialect) => {
	let stack: Stack
	let acmeId: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acmeId = stack.seeded.tenants.acme.id
	})
	afterAll(() => stack?.close())

	it('shows a tenant admin the draft course and its entry, marked as a draft, read-only', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const home = await admin.get(`${DRAFT}?preview=1`)
		expect(home.status).toBe(200)
		const $ = load(home.text)
		const banner = $('.banner-preview')
		expect(banner.hasClass('banner-draft')).toBe(true)
		expect(banner.text()).toContain('Draft. This course is not published')
		expect(banner.text()).toContain('Preview mode.')
		// The course home links its entries in preview.
		expect($(`a[href="${DRAFT_ENTRY}?preview=1"]`).length).toBeGreaterThan(0)
		const entry = await admin.get(`${DRAFT_ENTRY}?preview=1`)
		expect(entry.status).toBe(200)
		expect(entry.text).toContain('Draft body.')
		expect(load(entry.text)('.banner-draft').text()).toContain('This course is not published')
		// Read-only: marking it complete is refused and stores nothing.
		const post = await admin.post(`${DRAFT_ENTRY}?preview=1`, { intent: 'complete' })
		expect(post.status).toBe(403)
		const adminId = stack.seeded.users['acme:admin@acme.test'].id
		expect(await listProgress(stack.db, { tenantId: acmeId, userId: adminId }, 'draft-course')).toHaveLength(0)
		// Without the preview query the draft is what it is for everyone: not found.
		expect((await admin.get(DRAFT)).status).toBe(404)
		expect((await admin.get(DRAFT_ENTRY)).status).toBe(404)
		// A published course's preview is not marked as a draft.
		const published = await admin.get('/learn/course/intro-to-web?preview=1')
		expect(published.text).toContain('Preview mode.')
		expect(published.text).not.toContain('banner-draft')
		// An archived course stays gone, for staff too (spec: 410).
		expect((await admin.get('/learn/course/retired-course?preview=1')).status).toBe(410)
		// The admin's course list links the preview of every course, drafts included.
		const list = load((await admin.get('/admin/courses')).text)
		expect(list(`a[href="${DRAFT}?preview=1"]`).text()).toBe('Preview')
	})

	it('answers 404 to visitors, learners, course admins of other courses and the other tenant', async () => {
		expect((await stack.request(ACME, `${DRAFT}?preview=1`)).status).toBe(404)
		const learner = await stack.signIn('learner@acme.test')
		expect((await learner.get(`${DRAFT}?preview=1`)).status).toBe(404)
		expect((await learner.get(`${DRAFT_ENTRY}?preview=1`)).status).toBe(404)
		// author@acme.test administers intro-to-web only.
		const author = await stack.signIn('author@acme.test')
		expect((await author.get(`${DRAFT}?preview=1`)).status).toBe(404)
		expect((await author.get(`${DRAFT_ENTRY}?preview=1`)).status).toBe(404)
		// Assigned to the draft, the same course admin may preview it.
		const assign = await (
			await stack.signIn('admin@acme.test')
		).post('/admin/courses/draft-course/admins', {
			intent: 'assign',
			email: 'author@acme.test',
		})
		expect(assign.status).toBe(302)
		const again = await stack.signIn('author@acme.test')
		expect((await again.get(`${DRAFT_ENTRY}?preview=1`)).status).toBe(200)
		// Another tenant's admin: not found on their host, and this host does not take their session.
		const globex = await stack.signIn('admin@globex.test', 'globex.localhost')
		expect((await globex.get(`${DRAFT}?preview=1`)).status).toBe(404)
	})

	it('lets the super admin, entered into the tenant, preview it', async () => {
		const apex = await stack.signIn('root@platform.test', 'localhost')
		const entered = await stack.enter(apex, { id: acmeId, slug: 'acme' })
		const page = await entered.get(`${DRAFT_ENTRY}?preview=1`)
		expect(page.status).toBe(200)
		expect(page.text).toContain('This course is not published')
	})
})

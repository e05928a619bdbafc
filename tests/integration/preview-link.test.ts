import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProgress } from '#db/learning.ts'
import { previewToken } from '../../cms/strapi/src/utils/preview.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

// Issue 51, decision 0100: Strapi's Preview opens the app's preview of a draft through a link the CMS
// signs for its author (cms/strapi/src/utils/preview.ts makes the tokens here, as Strapi does). The
// link's holder needs no session; every other spelling of a link is no link at all.
const ACME = 'acme.localhost'
const CMS_ADMIN = 'http://cms.example.test:1337'
const DRAFT = '/learn/course/draft-course'
const DRAFT_ENTRY = `${DRAFT}/entry/secret-lesson`
const QUIZ = '/learn/course/intro-to-web/entry/basics-quiz'
const SECRET = TEST_SECRETS.CMS_WEBHOOK_SECRET
const MINUTE = 60_000

const token = (course = 'draft-course', over: { site?: string; secret?: string; now?: number } = {}) =>
	previewToken(
		over.secret ?? SECRET,
		{ site: over.site ?? 'acme', course, sub: '7', author: 'Ana <b>Author</b>' },
		over.now ?? Date.now(),
	)
const directives = (res: { headers: Record<string, unknown> }) =>
	String(res.headers['content-security-policy']).split(/;\s*/)
const withLink = (path: string, t: string) => `${path}?${new URLSearchParams({ preview: '1', token: t })}`

describe.each(DIALECTS)('preview links from the CMS on %s', (dialect) => {
	let stack: Stack
	const get = (path: string, headers: Record<string, string> = {}) => stack.request(ACME, path, { headers })
	beforeAll(async () => {
		stack = await startStack(dialect, { CMS_ADMIN_URL: CMS_ADMIN })
	})
	afterAll(() => stack?.close())

	it("opens the draft and its entries read-only for the link's holder, framed by the CMS's admin alone", async () => {
		const link = token()
		const home = await get(withLink(DRAFT, link))
		expect(home.status).toBe(200)
		const $ = load(home.text)
		const banner = $('.banner-preview')
		expect(banner.hasClass('banner-draft')).toBe(true)
		// Named as the CMS names the author, as text (the name is theirs to choose).
		expect(banner.text()).toContain('Opened from the course editor for Ana <b>Author</b>.')
		expect(banner.find('b')).toHaveLength(0)
		// The course home's entries stay in the same preview.
		expect($(`a[href="${withLink(DRAFT_ENTRY, link)}"]`).length).toBeGreaterThan(0)
		// The CMS's admin (its preview pane) may frame it, nothing else; no cache keeps it.
		expect(directives(home)).toContain(`frame-ancestors ${CMS_ADMIN}`)
		expect(home.headers['x-frame-options']).toBeUndefined()
		expect(home.headers['cache-control']).toBe('private, no-store')
		const entry = await get(withLink(DRAFT_ENTRY, link))
		expect(entry.status).toBe(200)
		expect(entry.text).toContain('Draft body.')
		const back = load(entry.text)(`a[href="${withLink(DRAFT, link)}"]`)
		expect(back.length).toBeGreaterThan(0)
		expect(directives(entry)).toContain(`frame-ancestors ${CMS_ADMIN}`)
		// Read-only: completing is refused; a quiz may be tried, and nothing is stored.
		const anon = stack.browser(ACME)
		expect((await anon.post(withLink(DRAFT_ENTRY, link), { intent: 'complete' })).status).toBe(403)
		const quiz = withLink(QUIZ, token('intro-to-web'))
		expect((await anon.get(quiz)).status).toBe(200)
		const tried = await anon.post(quiz, { intent: 'submit-quiz' })
		expect(tried.status).toBe(200)
		expect(tried.text).toContain('Preview:')
		// Pages without a link keep their wall against framing.
		for (const page of ['/learn', '/learn/course/intro-to-web', `${DRAFT}?preview=1`]) {
			const res = await get(page)
			expect(res.headers['x-frame-options'], page).toBe('DENY')
			if (res.status === 200) expect(directives(res), page).toContain("frame-ancestors 'none'")
		}
	})

	it('takes every other spelling of a link for no link: the draft is not found, a published page is not framed', async () => {
		const link = token()
		const [payload, sig] = link.split('.')
		const otherCourse = token('intro-to-web')
		const forged = Buffer.from(
			JSON.stringify({
				...JSON.parse(Buffer.from(otherCourse.split('.')[0], 'base64url').toString()),
				course: 'draft-course',
			}),
		).toString('base64url')
		const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11)
		const hostile: Record<string, string> = {
			'another course': withLink(DRAFT, otherCourse),
			'another site': withLink(DRAFT, token('draft-course', { site: 'globex' })),
			'another key': withLink(DRAFT, token('draft-course', { secret: 'another-secret-0123456789' })),
			'claims changed': withLink(DRAFT, `${forged}.${otherCourse.split('.')[1]}`),
			'signature changed': withLink(DRAFT, `${payload}.${flipped}`),
			'signature padded': withLink(DRAFT, `${link}=`),
			'extra segment': withLink(DRAFT, `${link}.x`),
			'signature only': withLink(DRAFT, `.${sig}`),
			'not base64': withLink(DRAFT, `!!!.${sig}`),
			'life too long': withLink(DRAFT, token('draft-course', { now: Date.now() + 40 * MINUTE })),
			empty: withLink(DRAFT, ''),
			huge: withLink(DRAFT, `${payload}${'A'.repeat(5_000)}.${sig}`),
			'without preview=1': `${DRAFT}?token=${link}`,
			'preview=true': `${DRAFT}?preview=true&token=${link}`,
			'two tokens': `${withLink(DRAFT, link)}&token=${link}`,
			'name in capitals': `${DRAFT}?preview=1&TOKEN=${link}`,
			'in the path': `${DRAFT}/${link}?preview=1`,
		}
		for (const [name, path] of Object.entries(hostile)) {
			expect((await get(path)).status, name).toBe(404)
			// An entry asks a visitor to sign in first where the request carries no link at all.
			const entry = await get(path.replace(DRAFT, DRAFT_ENTRY))
			expect([404, 302], `${name} (entry)`).toContain(entry.status)
			if (entry.status === 302) expect(entry.headers.location, name).toMatch(/^\/learn\/sign-in\?/)
		}
		// The same token, percent-encoded as a browser may write it, is the same link.
		expect((await get(`${DRAFT}?preview=1&token=${encodeURIComponent(link).replace(/-/g, '%2D')}`)).status).toBe(200)
		// A spoofed header names no author: only the token does.
		expect((await get(`${DRAFT}?preview=1`, { 'x-preview-token': link, referer: CMS_ADMIN })).status).toBe(404)
		// A link to another course on a published page: the landing, as for any visitor, not framed.
		const landing = await get(withLink('/learn/course/intro-to-web', token()))
		expect(landing.status).toBe(200)
		expect(landing.text).not.toContain('banner-preview')
		expect(landing.headers['x-frame-options']).toBe('DENY')
		// Its entries ask a visitor to sign in, as without a link.
		const entry = await get(withLink(QUIZ, token()))
		expect(entry.status).toBe(302)
		expect(entry.headers.location).toMatch(/^\/learn\/sign-in\?/)
	})

	it('says a link has expired once its time has passed, in the pane, and shows nothing of the course', async () => {
		const expired = token('draft-course', { now: Date.now() - 31 * MINUTE })
		for (const path of [withLink(DRAFT, expired), withLink(DRAFT_ENTRY, expired)]) {
			const res = await get(path)
			expect(res.status, path).toBe(403)
			expect(res.text).toContain('This preview link has expired.')
			expect(res.text).not.toContain('Draft body.')
			// Shown where the author opened it: the CMS's pane may frame this refusal.
			expect(directives(res)).toContain(`frame-ancestors ${CMS_ADMIN}`)
			expect(res.headers['x-frame-options']).toBeUndefined()
		}
		// On a published course an expired link is no link: the page is what it is for its reader, unframed.
		const old = token('intro-to-web', { now: Date.now() - 31 * MINUTE })
		const published = await get(withLink('/learn/course/intro-to-web', old))
		expect(published.status).toBe(200)
		expect(published.text).not.toContain('banner-preview')
		expect(published.headers['x-frame-options']).toBe('DENY')
	})

	it('frames only the preview itself: a missing entry or a refusal behind a good link keeps both walls', async () => {
		const link = token('intro-to-web')
		const missing = await get(withLink('/learn/course/intro-to-web/entry/nope', link))
		expect(missing.status).toBe(404)
		expect(missing.headers['x-frame-options']).toBe('DENY')
		const refused = await stack.browser(ACME).post(withLink(QUIZ, link), { intent: 'complete' })
		expect(refused.status).toBe(403)
		expect(refused.headers['x-frame-options']).toBe('DENY')
	})

	it("limits trying a quiz per link: one link's holders do not use up another's", async () => {
		const anon = stack.browser(ACME)
		const first = withLink(QUIZ, token('intro-to-web', { now: Date.now() - 5_000 }))
		const statuses: number[] = []
		for (let i = 0; i < 25; i++) statuses.push((await anon.post(first, { intent: 'submit-quiz' })).status)
		expect(statuses).toContain(429)
		// The same author's next link (made a few seconds later) has its own allowance.
		const next = withLink(QUIZ, token('intro-to-web', { now: Date.now() - 10_000 }))
		expect((await anon.post(next, { intent: 'submit-quiz' })).status).toBe(200)
	})

	it('is the link, not the session, for staff signed in: framed for the pane, its links keep the token', async () => {
		const admin = await stack.signIn('admin@acme.test')
		const link = token()
		const home = await admin.get(withLink(DRAFT, link))
		expect(home.status).toBe(200)
		expect(home.text).toContain('Opened from the course editor for')
		expect(directives(home)).toContain(`frame-ancestors ${CMS_ADMIN}`)
		expect(load(home.text)(`a[href="${withLink(DRAFT_ENTRY, link)}"]`).length).toBeGreaterThan(0)
		// Without a link, staff preview as before (spec: ?preview=1), unframed.
		const staff = await admin.get(`${DRAFT}?preview=1`)
		expect(staff.status).toBe(200)
		expect(staff.headers['x-frame-options']).toBe('DENY')
	})

	it('is a preview for a signed-in learner too: their standing is not read or written', async () => {
		const learner = await stack.signIn('learner@acme.test')
		const scope = { tenantId: stack.seeded.tenants.acme.id, userId: stack.seeded.users['acme:learner@acme.test'].id }
		const before = await listProgress(stack.db, scope, 'intro-to-web')
		const lesson = await learner.get(withLink('/learn/course/intro-to-web/entry/what-is-http', token('intro-to-web')))
		expect(lesson.status).toBe(200)
		expect(lesson.text).toContain('Opened from the course editor for')
		expect(await listProgress(stack.db, scope, 'intro-to-web')).toEqual(before)
		// A learner with a leftover cookie gets the draft only through the link, like anyone.
		expect((await learner.get(`${DRAFT}?preview=1`)).status).toBe(404)
		expect((await learner.get(withLink(DRAFT, token()))).status).toBe(200)
	})
})

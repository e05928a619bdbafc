import { describe, expect, it } from 'vitest'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { strapiAdmin } from '#tests/support/strapi.ts'

// A translation may leave its title empty (served from en, field by field, as the local content
// service does), en's may not (decision 0050, cms/strapi/src/utils/required.ts).
const COURSE = 'api::course.course'
const SITE_API = `${process.env.CONTENT_SERVICE_URL}/projects/${TEST_SECRETS.CMS_PROJECT_UUID}/sites/acme`

describe('titles of translations in Strapi', () => {
	it('refuses an empty English title in every spelling, on create and on update, and writes nothing', async () => {
		const author = await strapiAdmin('author@acme.test')
		const slug = `untitled-${Date.now()}`
		for (const title of ['', '   ', null]) {
			const refused = await author.create(COURSE, { slug, title, listed: true })
			expect(refused.status, JSON.stringify(title)).toBe(400)
			expect(JSON.stringify(refused.body)).toContain('title')
		}
		const missing = await author.create(COURSE, { slug, listed: true })
		expect(missing.status).toBe(400)
		const none = await author.list(COURSE)
		expect(none.body.results.filter((c: any) => c.slug === slug)).toEqual([])

		const made = await author.create(COURSE, { slug, title: 'Titled', listed: true })
		expect(made.status).toBe(201)
		const id = made.body.data.documentId
		try {
			expect((await author.update(COURSE, id, { title: ' ' })).status).toBe(400)
			expect((await author.get(COURSE, id)).body.data.title).toBe('Titled')
		} finally {
			expect((await author.remove(COURSE, id)).status).toBe(200)
		}
	})

	it('publishes a translation with no title of its own; the API serves the title from en and the rest in French', async () => {
		const author = await strapiAdmin('author@acme.test')
		const slug = `partial-${Date.now()}`
		const made = await author.create(COURSE, { slug, title: 'Partial', summary: 'In English', listed: true })
		expect(made.status).toBe(201)
		const id = made.body.data.documentId
		try {
			const fr = await author.update(COURSE, id, { slug, title: '', summary: 'En français', listed: true }, 'fr')
			expect(fr.status).toBe(200)
			for (const locale of ['en', 'fr']) expect((await author.publish(COURSE, id, locale)).status, locale).toBe(200)
			const res = await fetch(`${SITE_API}/courses/${slug}?locale=fr`, {
				headers: { 'x-api-key': TEST_SECRETS.CMS_API_UUID },
			})
			const { data } = await res.json()
			expect(data).toMatchObject({
				title: 'Partial',
				locale: 'en',
				summary: 'En français',
				summaryLocale: 'fr',
				status: 'published',
			})
		} finally {
			expect((await author.remove(COURSE, id)).status).toBe(200)
		}
	})

	it("fills a new translation from en with the modules, entries and questions, keeping en's slugs", async () => {
		const author = await strapiAdmin('author@acme.test')
		const slug = `filled-${Date.now()}`
		const made = await author.create(COURSE, {
			slug,
			title: 'Filled',
			listed: true,
			modules: [
				{
					title: 'First steps',
					entries: [
						{ title: 'Welcome', body: 'Read this.' },
						{ title: 'Check', quiz: { questions: [{ prompt: 'GET is safe.', correct: true }] } },
					],
				},
				{ title: 'Practice', entries: [{ title: 'Hand in', assignment: { maxScore: 10 } }] },
			],
		})
		expect(made.status).toBe(201)
		const id = made.body.data.documentId
		try {
			// What Strapi's "Fill in from another locale" asks for the Spanish form.
			const filled = await author.call(
				'GET',
				`/i18n/content-manager/get-fill-from-locale/${COURSE}?documentId=${id}&sourceLocale=en&targetLocale=es&collectionType=collection-types`,
			)
			expect(filled.status).toBe(200)
			const data = filled.body.data ?? filled.body
			const outline = (data.modules as any[]).map((m) => ({
				slug: m.slug,
				title: m.title,
				entries: (m.entries as any[]).map((e) => [e.slug, e.title, e.type]),
			}))
			expect(outline).toEqual([
				{
					slug: 'first-steps',
					title: 'First steps',
					entries: [
						['welcome', 'Welcome', 'lesson'],
						['check', 'Check', 'quiz'],
					],
				},
				{ slug: 'practice', title: 'Practice', entries: [['hand-in', 'Hand in', 'assignment']] },
			])
			expect(data.modules[0].entries[1].quiz.questions[0]).toMatchObject({ prompt: 'GET is safe.', correct: true })
		} finally {
			expect((await author.remove(COURSE, id)).status).toBe(200)
		}
	})
})

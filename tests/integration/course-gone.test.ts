/**
 * A course unpublished after learners enrolled (issue 45: publishing is whole): their dashboard
 * names it as no longer available and links nowhere into it (its pages answer 404), its recent
 * scores keep their titles without a link, and its due lines and calendar feed drop it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from 'cheerio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const COURSE = 'intro-to-web'

describe.each(DIALECTS)('a course taken down after learners enrolled, on %s', (dialect) => {
	let stack: Stack
	let contentDir: string
	beforeAll(async () => {
		contentDir = mkdtempSync(join(tmpdir(), 'lms-gone-'))
		cpSync('cms/content', contentDir, { recursive: true })
		stack = await startStack(dialect, {}, { cmsContentDir: contentDir })
	})
	afterAll(async () => {
		await stack?.close()
		rmSync(contentDir, { recursive: true, force: true })
	})

	it('is named as no longer available on the dashboard, with no link into it', async () => {
		const b = await stack.signIn('learner@acme.test')
		// A quiz attempt of the course, listed among recent scores (its lessons first: the course is sequential).
		const entry = (slug: string) => `/learn/course/${COURSE}/entry/${slug}`
		for (const lesson of ['what-is-http', 'html-forms']) await b.post(entry(lesson), { intent: 'complete' })
		const attempt = await b.post(entry('basics-quiz'), { intent: 'submit-quiz', 'q:q-method': 'get' })
		expect(attempt.status, attempt.text).toBe(302)
		const before = load((await b.get('/learn/dashboard')).text)
		expect(before(`a[href^="/learn/course/${COURSE}"]`).length).toBeGreaterThan(0)

		// Taken down in the content service, and the app told (the webhook's tag).
		const file = join(contentDir, 'acme/courses', `${COURSE}.json`)
		const course = JSON.parse(readFileSync(file, 'utf8'))
		writeFileSync(file, JSON.stringify({ ...course, status: 'draft', updatedAt: new Date().toISOString() }))
		stack.cms.reload()
		stack.tags.revalidate([`course:${COURSE}`, 'courses'])
		// Revalidation refetches in the background: the next answers follow within a moment.
		for (let i = 0; i < 50 && (await b.get(`/learn/course/${COURSE}`)).status !== 404; i++)
			await new Promise((r) => setTimeout(r, 100))
		expect((await b.get(`/learn/course/${COURSE}`)).status).toBe(404)

		const dashboard = await b.get('/learn/dashboard')
		expect(dashboard.status).toBe(200)
		const $ = load(dashboard.text)
		expect($(`a[href*="/learn/course/${COURSE}"]`).length, 'a link into the course').toBe(0)
		expect($('main').text()).toContain(`No longer available: ${COURSE}`)
		// The recent score keeps its entry's name, marked, without a link.
		expect($('main').text()).toMatch(/basics-quiz \(No longer available\)/)
	})
})

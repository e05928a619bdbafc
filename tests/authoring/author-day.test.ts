import { mkdirSync, writeFileSync } from 'node:fs'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { strapiAdmin, within, type StrapiAdmin } from '#tests/support/strapi.ts'

// An author's day, end to end, through Strapi's own admin API (what its admin panel calls) as
// Acme's demo author, and a learner on the tenant host reading plain HTML (JavaScript off).
// Strapi is started by scripts/test-authoring.sh with its webhooks to AUTHORING_APP_PORT.
const APP_PORT = Number(process.env.AUTHORING_APP_PORT)
const CONTENT_SERVICE_URL = process.env.CONTENT_SERVICE_URL!
const COURSE = 'api::course.course'
const ACME = 'acme.localhost'
const VISIBLE_MS = 2000

describe.each(DIALECTS)("an author's day in Strapi, seen by a learner on %s", (dialect) => {
	let stack: Stack
	let author: StrapiAdmin
	const slug = `day-${dialect}-${Date.now()}`
	const landing = `/learn/course/${slug}`
	let id: string
	let imageUrl: string
	let learner: ReturnType<Stack['browser']>

	beforeAll(async () => {
		stack = await startStack(dialect, {}, { contentServiceUrl: CONTENT_SERVICE_URL, port: APP_PORT })
		author = await strapiAdmin('author@acme.test')
	})
	afterAll(() => stack?.close())

	/** The course as the author writes it, in en or es; `lessonBody` is what the edits change. */
	const course = (locale: 'en' | 'es', lessonBody: string, extra: Record<string, unknown> = {}) => {
		const es = locale === 'es'
		return {
			slug,
			title: es ? 'Un día de autora' : "An author's day",
			summary: es ? 'Escrito en Strapi.' : 'Written in Strapi.',
			description: es ? 'Dos módulos.' : 'Two modules.',
			listed: true,
			estimatedMinutes: 30,
			modules: [
				{
					slug: 'first',
					title: es ? 'Primero' : 'First',
					entries: [
						{
							slug: 'pictures',
							type: 'lesson',
							title: es ? 'Imágenes' : 'Pictures',
							body: `${lessonBody}\n\n![A diagram](${imageUrl})`,
						},
						{
							slug: 'check',
							type: 'quiz',
							title: es ? 'Comprobación' : 'Check',
							body: es ? 'Tres preguntas.' : 'Three questions.',
							quiz: {
								maxAttempts: 2,
								passingScore: 60,
								// showAnswers wins over the older field (decision 0054); the order is drawn per attempt.
								revealAnswers: 'never',
								showAnswers: 'after_passing',
								shuffle: true,
								questions: [
									{
										key: 'pick',
										type: 'multiple_choice',
										prompt: es ? '¿Qué método cambia datos?' : 'Which method changes data?',
										options: [
											{ key: 'get', text: 'GET' },
											{ key: 'post', text: 'POST' },
										],
										correctOptionKey: 'post',
										explanation: es ? 'POST cambia datos.' : 'POST changes data.',
									},
									{
										key: 'yes',
										type: 'true_false',
										prompt: es ? 'Los formularios funcionan sin JavaScript.' : 'Forms work without JavaScript.',
										correct: true,
									},
									{
										key: 'word',
										type: 'short_answer',
										prompt: es ? '¿Qué elemento agrupa campos?' : 'Which element groups fields?',
										acceptedAnswers: 'form\n<form>',
									},
								],
							},
						},
					],
				},
				{
					slug: 'second',
					title: es ? 'Segundo' : 'Second',
					entries: [
						{
							slug: 'hand-in',
							type: 'assignment',
							title: es ? 'Entrega' : 'Hand in',
							body: es ? 'Entrega una página.' : 'Hand in a page.',
							assignment: { graded: true, maxScore: 10, passingScore: 6, allowedFileTypes: 'txt, pdf' },
						},
					],
				},
			],
			...extra,
		}
	}
	const page = (path: string) => stack.request(ACME, path)

	it('writes a course with two modules, an image, a quiz and an assignment in en and es, publishes it, and the learner sees it within 2 s', async () => {
		// The image goes to the course's folder of Acme's media library.
		const acmeFolder = await author.folder('acme', null)
		const folder = await author.folder(slug, acmeFolder)
		const png = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#3366cc' } })
			.png()
			.toBuffer()
		const uploaded = await author.upload(`${slug}-diagram.png`, png, 'image/png', folder)
		expect(uploaded.status).toBe(201)
		imageUrl = uploaded.body[0].url

		const created = await author.create(COURSE, course('en', 'First version of the lesson.'))
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		id = created.body.data.documentId
		expect((await author.update(COURSE, id, course('es', 'Primera versión de la lección.'), 'es')).status).toBe(200)
		// Not published yet: the learner's 404.
		expect((await page(landing)).status).toBe(404)

		expect((await author.publish(COURSE, id, 'en')).status).toBe(200)
		expect((await author.publish(COURSE, id, 'es')).status).toBe(200)
		// Within 2 s of the author's publish being answered.
		const seen = await within(VISIBLE_MS, async () => (await page(landing)).status === 200, 'the published course')
		const html = (await page(landing)).text
		expect(html).toContain('An author&#x27;s day')
		expect(html).toContain('Written in Strapi.')
		// A page for JavaScript off: no script to run (JSON-LD only).
		expect(html).not.toMatch(/<script(?![^>]*type="application\/ld\+json")[^>]*>/)
		const es = (await page(`/es${landing}`)).text
		expect(es).toContain('Un día de autora')
		expect(es).toContain('Escrito en Strapi.')
		console.log(`[author-day ${dialect}] published course visible after ${Math.round(seen)} ms`)
	})

	it('serves the lesson with its image through the asset proxy, resized; the quiz without its answers; the assignment', async () => {
		learner = stack.browser(ACME)
		expect((await learner.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status).toBe(
			302,
		)
		expect((await learner.post(`${landing}/enroll`, {})).status).toBe(302)
		const lesson = await learner.get(`${landing}/entry/pictures`)
		expect(lesson.status).toBe(200)
		expect(lesson.text).toContain('First version of the lesson.')
		const src = /<img[^>]+src="([^"]+)"/.exec(lesson.text)?.[1]
		expect(src).toMatch(new RegExp(`^/api/cms/courses/${slug}/assets/${slug}-diagram$`))
		expect(lesson.text).toContain(`${src}?w=320 320w`)
		const resized = await learner.get(`${src}?w=320`)
		expect(resized.status).toBe(200)
		expect(resized.headers['content-type']).toBe('image/png')
		expect((await sharp(resized.body).metadata()).width).toBe(320)
		// Another course's path does not serve it.
		expect((await learner.get(`/api/cms/courses/intro-to-web/assets/${slug}-diagram`)).status).toBe(404)

		// The quiz opens once the lesson before it is done (sequential gating), the second module once the quiz is passed.
		expect((await learner.post(`${landing}/entry/pictures`, { intent: 'complete' })).status).toBe(302)
		const quiz = await learner.get(`${landing}/entry/check`)
		expect(quiz.status).toBe(200)
		for (const prompt of [
			'Which method changes data?',
			'Forms work without JavaScript.',
			'Which element groups fields?',
		])
			expect(quiz.text).toContain(prompt)
		for (const secret of ['POST changes data.', 'correctOptionKey', '&lt;form&gt;'])
			expect(quiz.text).not.toContain(secret)

		const attempt = await learner.post(`${landing}/entry/check`, {
			intent: 'submit-quiz',
			'q:pick': 'post',
			'q:yes': 'true',
			'q:word': ' Form ',
		})
		expect([200, 302, 303]).toContain(attempt.status)
		// Passed: `after_passing` (not the older `never`) shows the explanations, carried through Strapi.
		const review = await learner.get(`${landing}/entry/check`)
		expect(review.text).toContain('POST changes data.')
		expect(review.text).toContain('quiz-standing')
		const assignment = await learner.get(`${landing}/entry/hand-in`)
		expect(assignment.status).toBe(200)
		expect(assignment.text).toContain('Hand in a page.')
		// The hand-in form with the author's rules: graded out of 10, pass mark 6, .txt and .pdf.
		expect(assignment.text).toMatch(/<form[^>]*encType="multipart\/form-data"[^>]*method="post"/i)
		expect(assignment.text).toContain('Graded out of 10. Pass mark: 6.')
		expect(assignment.text).toContain('.txt, .pdf')
	})

	it('shows an edited lesson within 2 s (publish to visible: median and worst of 20)', async () => {
		const latencies: number[] = []
		const answered: number[] = []
		for (let i = 1; i <= 20; i++) {
			const text = `Edited lesson, version ${i}.`
			expect((await author.update(COURSE, id, course('en', text))).status).toBe(200)
			const started = performance.now()
			const publish = await author.publish(COURSE, id, 'en')
			expect(publish.status).toBe(200)
			answered.push(publish.ms)
			// The learner sees it within 2 s of the publish being answered; the figure counts from its start.
			await within(
				VISIBLE_MS,
				async () => (await learner.get(`${landing}/entry/pictures`)).text.includes(text),
				`edit ${i}`,
			)
			latencies.push(performance.now() - started)
		}
		const median = (xs: number[]) => {
			const sorted = [...xs].sort((a, b) => a - b)
			return (sorted[9] + sorted[10]) / 2
		}
		const worst = Math.max(...latencies)
		const line = `authoring ${dialect}: publish to visible, 20 edits: median ${Math.round(median(latencies))} ms, worst ${Math.round(worst)} ms (Strapi answered the publish in a median ${Math.round(median(answered))} ms)`
		console.log(line)
		mkdirSync('.tmp/authoring', { recursive: true })
		writeFileSync(`.tmp/authoring/latency.${dialect}.txt`, `${line}\n`)
		expect(latencies).toHaveLength(20)
	})

	it('answers 404 once the course is unpublished, and 410 once it is archived', async () => {
		expect((await author.unpublish(COURSE, id, 'en')).status).toBe(200)
		await within(VISIBLE_MS, async () => (await page(landing)).status === 404, 'the unpublished course')
		expect((await learner.get(`${landing}/entry/pictures`)).status).toBe(404)

		// Archived after publication: the archive date on the published version.
		const archived = course('en', 'Last version.', { archivedAt: new Date().toISOString() })
		expect((await author.update(COURSE, id, archived)).status).toBe(200)
		expect((await author.publish(COURSE, id, 'en')).status).toBe(200)
		await within(VISIBLE_MS, async () => (await page(landing)).status === 410, 'the archived course')
		expect((await page(`/es${landing}`)).status).toBe(410)
	})

	it("keeps an author to their own site: Globex's author neither sees nor writes Acme's course", async () => {
		const globex = await strapiAdmin('author@globex.test')
		const listed = await globex.list(COURSE)
		expect(listed.status).toBe(200)
		expect(listed.body.results.map((c: any) => c.site)).not.toContain('acme')
		expect([403, 404]).toContain((await globex.get(COURSE, id)).status)
		expect([403, 404]).toContain((await globex.update(COURSE, id, { title: 'Taken over' })).status)
		expect([403, 404]).toContain((await globex.publish(COURSE, id)).status)
		expect([403, 404]).toContain((await globex.remove(COURSE, id)).status)
		// Nor puts a course of its own into Acme's site.
		const planted = await globex.create(COURSE, { site: 'acme', slug: `planted-${dialect}`, title: 'Planted' })
		expect(planted.status).toBe(403)
		// Nor moves one of its own there.
		const own = await globex.create(COURSE, { slug: `own-${dialect}-${Date.now()}`, title: 'Own' })
		expect(own.status).toBe(201)
		expect(own.body.data.site).toBe('globex')
		expect((await globex.update(COURSE, own.body.data.documentId, { site: 'acme' })).status).toBe(403)
		// A slug is unique within a site, whatever its spelling of the other fields: Globex's onboarding exists.
		const again = await globex.create(COURSE, { slug: 'globex-onboarding', title: 'Again' })
		expect(again.status).toBe(400)
		expect(JSON.stringify(again.body)).toContain('slug')
		expect((await globex.remove(COURSE, own.body.data.documentId)).status).toBe(200)
		// The platform's editor sees every site's (other suites of the stage may have added sites of their own).
		const editor = await strapiAdmin('editor@platform.test')
		const all = (await editor.list(COURSE)).body.results.map((c: any) => c.site)
		expect(all).toEqual(expect.arrayContaining(['acme', 'globex']))
		expect((await author.get(COURSE, id)).body.data.title).toBe("An author's day")
		expect((await author.remove(COURSE, id)).status).toBe(200)
	})
})

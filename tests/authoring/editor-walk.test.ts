import { mkdirSync, writeFileSync } from 'node:fs'
import { chromium, type Browser } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { CMS_DEMO_PASSWORD, STRAPI_URL, within } from '#tests/support/strapi.ts'
import { publish, saveAndPreview, signIn, translateToSpanish, Walk, writeCourse } from './editor-walk.ts'

// Issue 51: a teacher writes a course in Strapi's own admin panel at 1280 px, from a blank form to
// published, and a learner sees it. The walk counts every click (a field clicked into counts as
// one) and every JSON box typed into, and prints them with its time. Needs the admin panel served
// (scripts/test-authoring.sh builds it once per lockfile and admin source).
const APP_PORT = Number(process.env.AUTHORING_APP_PORT)
const CONTENT_SERVICE_URL = process.env.CONTENT_SERVICE_URL!
// Issue 51's bound for the whole walk, with the Spanish version (decision 0082: switch 2, type 4, save and
// publish 2); the English course alone is held to what it reached (decision 0093), so it cannot grow.
const MAX_CLICKS_ENGLISH = 31
const MAX_CLICKS = 40
const ACME = 'acme.localhost'
const ZONE = 'America/New_York'

describe('a teacher writes a course in the admin panel, and a learner sees it', () => {
	let browser: Browser
	let stack: Stack
	beforeAll(async () => {
		// Acme's time zone, as the app's provisioning job sends it when its admins choose one.
		const provisioned = await fetch(
			`${CONTENT_SERVICE_URL}/projects/${process.env.CMS_PROJECT_UUID}/sites/acme/authoring`,
			{
				method: 'PUT',
				headers: { 'x-api-key': process.env.CMS_API_UUID!, 'content-type': 'application/json' },
				body: JSON.stringify({ status: 'active', timeZone: ZONE }),
			},
		)
		expect(provisioned.status).toBe(200)
		browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
		// The app's course admin links each course to the CMS (decision 0073).
		stack = await startStack(
			'sqlite',
			{ CMS_ADMIN_URL: STRAPI_URL },
			{ contentServiceUrl: CONTENT_SERVICE_URL, port: APP_PORT },
		)
	})
	afterAll(async () => {
		await browser?.close()
		await stack?.close()
	})

	it(
		`takes at most ${MAX_CLICKS} clicks and no JSON for the course with its Spanish version (${MAX_CLICKS_ENGLISH} without)`,
		{ timeout: 240_000 },
		async () => {
			const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
			page.setDefaultTimeout(20_000)
			await signIn(page, STRAPI_URL, 'author@acme.test', CMS_DEMO_PASSWORD)
			await page.goto(
				`${STRAPI_URL}/admin/content-manager/collection-types/api::course.course/create?plugins[i18n][locale]=en`,
			)
			await page.locator('input[name="title"]').waitFor({ timeout: 60_000 })
			const walk = new Walk(page)
			await writeCourse(walk)
			// The due date was typed in Acme's time zone, which the field names (decision 0095).
			await page.getByText(`In the school’s time zone: ${ZONE}`).last().waitFor()
			const preview = await saveAndPreview(walk)
			// Before publishing, Strapi's preview pane shows the app's page of the draft, through a link
			// signed for this author (decision 0100): no app session, framed by this admin alone.
			expect(preview.title).toBe('A walk through the editor')
			expect(preview.banner).toContain('Draft.')
			expect(preview.banner).toMatch(/Opened from the course editor for .+\. This link works until/)
			const pane = new URL(preview.src ?? '/', 'http://x')
			expect(pane.host).toBe(`${ACME}:${APP_PORT}`)
			expect(pane.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]{43}$/)
			const draft = await stack.request(ACME, `${pane.pathname}${pane.search}`)
			expect(draft.status).toBe(200)
			expect(draft.headers['content-security-policy']).toContain(`frame-ancestors ${new URL(STRAPI_URL).origin}`)
			// Without the link the draft is not found, for the same visitor.
			expect((await stack.request(ACME, `${pane.pathname}?preview=1`)).status).toBe(404)
			await publish(walk)
			// The address made from the title.
			const slug = await page.locator('input[name="slug"]').inputValue()
			expect(slug).toMatch(/^a-walk-through-the-editor(-\d+)?$/)
			// Published, the edit view says where learners find it: the public page on Acme's host, no preview flag.
			await expect
				.poll(() => page.getByTestId('public-url').getAttribute('href'), { timeout: 15_000 })
				.toBe(`http://${ACME}:${APP_PORT}/learn/course/${slug}`)
			const english = walk.figures()
			// The Spanish version (decision 0082): title, a module and the lesson, published.
			await translateToSpanish(walk)
			const figures = walk.figures()
			// The preview opened the app's preview of the draft, on Acme's host, with its link.
			expect(preview.src).toMatch(new RegExp(`^http://${ACME}:${APP_PORT}/learn/course/${slug}\\?preview=1&token=`))
			const line = `editor walk: ${figures.clicks} clicks, ${figures.typed} fields typed, ${figures.json} JSON boxes typed, ${figures.seconds.toFixed(1)} s (English alone: ${english.clicks} clicks, ${english.seconds.toFixed(1)} s)`
			console.log(`${walk.log.join('\n')}\n${line}`)
			mkdirSync('.tmp/authoring', { recursive: true })
			writeFileSync('.tmp/authoring/latency.editor-walk.txt', `${line}\n`)

			// The learner: the published course on Acme's host, with its modules' entries.
			const landing = `/learn/course/${slug}`
			await within(5000, async () => (await stack.request(ACME, landing)).status === 200, 'the published course')
			const learner = stack.browser(ACME)
			expect(
				(await learner.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })).status,
			).toBe(302)
			expect((await learner.post(`${landing}/enroll`, {})).status).toBe(302)
			const lesson = await learner.get(`${landing}/entry/welcome`)
			expect(lesson.status).toBe(200)
			expect(lesson.text).toContain('<strong>this</strong>')
			const outline = (await learner.get(landing)).text
			for (const title of ['First steps', 'Check', 'Practice', 'Hand in a page']) expect(outline).toContain(title)
			// The learner chooses Spanish (the app's /es/ pages ask the content in es): the translated lesson,
			// and what was not translated served from en.
			const chosen = await learner.post('/learn/locale', { locale: 'es', redirectTo: `${landing}/entry/welcome` })
			expect(chosen.headers.location).toBe(`/es${landing}/entry/welcome`)
			const spanish = await learner.get(`/es${landing}/entry/welcome`)
			expect(spanish.status).toBe(200)
			expect(spanish.text).toContain('Lee <strong>esto</strong> primero.')
			expect(spanish.text).toContain('Bienvenida')
			const spanishOutline = (await learner.get(`/es${landing}`)).text
			for (const title of ['Un paseo por el editor', 'Primeros pasos', 'Bienvenida', 'Check', 'Practice'])
				expect(spanishOutline).toContain(title)
			// The quiz as the app reads it (answers are server-only): one question of each type.
			const entry = (entrySlug: string) =>
				fetch(
					`${CONTENT_SERVICE_URL}/projects/${process.env.CMS_PROJECT_UUID}/sites/acme/courses/${slug}/entries/${entrySlug}?locale=en`,
					{ headers: { 'x-api-key': process.env.CMS_API_UUID! } },
				).then((r) => r.json() as Promise<any>)
			const quiz = await entry('check')
			expect(quiz.data.quiz.questions.map((q: any) => q.type)).toEqual([
				'multiple_choice',
				'true_false',
				'short_answer',
			])
			expect(quiz.data.quiz.questions[0].correctOptionId).toBe(quiz.data.quiz.questions[0].options[1].id)
			const assignment = await entry('hand-in-a-page')
			// 17:00 in New York that day is 22:00 UTC: the instant the app reads.
			expect(assignment.data.due.at).toBe('2026-12-31T22:00:00.000Z')
			expect(assignment.data.assignment.maxScore).toBe(10)

			// The way back: Acme's course admin links the course to its page in the CMS, which finds it.
			const staff = await stack.signIn('admin@acme.test')
			const courses = await staff.get('/admin/courses')
			const link = [...courses.text.matchAll(/href="([^"]+)"/g)]
				.map((m) => m[1].replaceAll('&amp;', '&'))
				.find((href) => href.startsWith(`${STRAPI_URL}/admin/content-manager/`) && href.includes(slug))
			expect(link, 'a link to the course in the CMS').toBeTruthy()
			await page.goto(link!)
			await page
				.getByRole('gridcell', { name: slug, exact: true })
				.or(page.getByText(slug, { exact: true }))
				.first()
				.waitFor()

			expect(figures.json, 'JSON typed by the teacher').toBe(0)
			expect(english.clicks, line).toBeLessThanOrEqual(MAX_CLICKS_ENGLISH)
			expect(figures.clicks, line).toBeLessThanOrEqual(MAX_CLICKS)
		},
	)

	it("shows the form's help lines and placeholders in the author's admin language", { timeout: 120_000 }, async () => {
		const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
		page.setDefaultTimeout(20_000)
		await signIn(page, STRAPI_URL, 'author@acme.test', CMS_DEMO_PASSWORD)
		// What an author's profile sets (Strapi keeps it in the browser's storage).
		await page.evaluate(() => window.localStorage.setItem('strapi-admin-language', 'es'))
		await page.goto(
			`${STRAPI_URL}/admin/content-manager/collection-types/api::course.course/create?plugins[i18n][locale]=en`,
		)
		await page.getByText('Lo que los alumnos ven en el catálogo y en la parte superior de cada página.').waitFor()
		expect(await page.locator('input[name="title"]').getAttribute('placeholder')).toBe('p. ej. Introducción a la web')
		// In a component's fields too, and the label beside it is Strapi's translation of ours.
		await page.getByText('Los alumnos lo ven encima de las lecciones del módulo.').waitFor()
		await page.getByText('Título del curso').first().waitFor()
		// The English help line is gone from the page.
		expect(await page.getByText('What learners see in the catalogue and at the top of every page.').count()).toBe(0)
		await page.close()
	})
})

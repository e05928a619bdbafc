import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { startWebhookRecorder, strapiAdmin, within, type StrapiAdmin } from '#tests/support/strapi.ts'

// Strapi (cms/strapi) runs with LMS_APP_URLS = the app on AUTHORING_APP_PORT and a recorder on
// AUTHORING_RECORDER_PORT, and the tests' webhook secret: scripts/test-authoring.sh starts it so.
const APP_PORT = Number(process.env.AUTHORING_APP_PORT)
const RECORDER_PORT = Number(process.env.AUTHORING_RECORDER_PORT)
const CONTENT_SERVICE_URL = process.env.CONTENT_SERVICE_URL!
const COURSE = 'api::course.course'
const PAGE = 'api::page.page'
const POST = 'api::blog-post.blog-post'
const SITE = 'api::site.site'

const lesson = (slug: string) => ({ slug, type: 'lesson', title: `Lesson ${slug}`, body: `Body of ${slug}.` })
const sameTags = (got: string[], expected: string[]) => {
	expect(got).toHaveLength(new Set(got).size)
	expect(new Set(got)).toEqual(new Set(expected))
}

describe.each(DIALECTS)('revalidation from Strapi to the app on %s', (dialect) => {
	let stack: Stack
	let recorder: Awaited<ReturnType<typeof startWebhookRecorder>>
	let author: StrapiAdmin
	const start = () => startStack(dialect, {}, { contentServiceUrl: CONTENT_SERVICE_URL, port: APP_PORT })

	beforeAll(async () => {
		recorder = await startWebhookRecorder(RECORDER_PORT)
		stack = await start()
		author = await strapiAdmin('author@acme.test')
	})
	afterAll(async () => {
		await stack?.close()
		await recorder?.close()
	})

	it("sends a course's exact tags, with the secret, to every app URL on create, edit, publish, unpublish and delete", async () => {
		const slug = `hooked-${dialect}-${Date.now()}`
		let from = recorder.deliveries.length
		const created = await author.create(COURSE, {
			slug,
			title: 'Hooked',
			listed: true,
			modules: [{ slug: 'm1', title: 'One', entries: [lesson('a'), lesson('b')] }],
		})
		expect(created.status).toBe(201)
		const id = created.body.data.documentId
		const tags = [`course:${slug}`, `entry:${slug}:a`, `entry:${slug}:b`]
		const first = await recorder.waitFor(tags, from)
		sameTags(first.body.tags, tags)
		expect(first.headers['x-cms-webhook-secret']).toBe(TEST_SECRETS.CMS_WEBHOOK_SECRET)
		expect(first.headers['content-type']).toBe('application/json')
		// The app accepted the same request (its tag versions moved), not only the recorder.
		await within(2000, async () => stack.tags.version(`entry:${slug}:b`) > 0, 'the app revalidated')

		const step = async (what: Promise<{ status: number }>, expected: string[]) => {
			from = recorder.deliveries.length
			const versions = expected.map((t) => stack.tags.version(t))
			expect((await what).status).toBe(200)
			sameTags((await recorder.waitFor(expected, from)).body.tags, expected)
			await within(
				2000,
				async () => expected.every((t, i) => stack.tags.version(t) > versions[i]),
				'the app revalidated',
			)
		}
		await step(author.publish(COURSE, id), tags)
		// An entry renamed: the old entry's tag and the new one's.
		const renamed = {
			slug,
			title: 'Hooked',
			listed: true,
			modules: [{ slug: 'm1', title: 'One', entries: [lesson('a'), lesson('c')] }],
		}
		await step(author.update(COURSE, id, renamed), [...tags, `entry:${slug}:c`])
		// Unpublished: the published version the app served still had b (the rename was a draft's).
		await step(author.unpublish(COURSE, id), [...tags, `entry:${slug}:c`])
		await step(author.remove(COURSE, id), [`course:${slug}`, `entry:${slug}:a`, `entry:${slug}:c`])
	})

	it('sends cms:page-hierarchy for pages and blog posts, site:<host> for the site document', async () => {
		let from = recorder.deliveries.length
		const page = await author.create(PAGE, {
			slug: `hooked-${dialect}-${Date.now()}`,
			title: 'Hooked page',
			listed: false,
			order: 50,
		})
		expect(page.status).toBe(201)
		sameTags((await recorder.waitFor(['cms:page-hierarchy'], from)).body.tags, ['cms:page-hierarchy'])
		from = recorder.deliveries.length
		expect((await author.remove(PAGE, page.body.data.documentId)).status).toBe(200)
		await recorder.waitFor(['cms:page-hierarchy'], from)

		from = recorder.deliveries.length
		const post = await author.create(POST, { slug: `hooked-${dialect}-${Date.now()}`, title: 'Hooked post' })
		expect(post.status).toBe(201)
		sameTags((await recorder.waitFor(['cms:page-hierarchy'], from)).body.tags, ['cms:page-hierarchy'])
		from = recorder.deliveries.length
		expect((await author.remove(POST, post.body.data.documentId)).status).toBe(200)
		// Its delivery first: tags still waiting when the site is saved go out with the site's, in one batch.
		await recorder.waitFor(['cms:page-hierarchy'], from)

		const sites = await author.list(SITE)
		expect(sites.body.results.map((s: any) => s.key)).toEqual(['acme'])
		const acme = sites.body.results[0]
		from = recorder.deliveries.length
		const before = stack.tags.version('site:acme')
		const saved = await author.update(SITE, acme.documentId, { security_contact: acme.security_contact })
		expect(saved.status).toBe(200)
		sameTags((await recorder.waitFor(['site:acme.localhost'], from)).body.tags, ['site:acme.localhost'])
		// The app resolves the host to its site and invalidates that too.
		await within(2000, async () => stack.tags.version('site:acme') > before, 'the site revalidated')
	})

	it('asks an app that answers 503 again with growing pauses, and never holds the save', async () => {
		await recorder.quiet()
		const slug = `retried-${dialect}-${Date.now()}`
		const from = recorder.deliveries.length
		// Only this course's deliveries fail: others may still be on their way (retried from earlier files).
		recorder.state.failTag = `course:${slug}`
		recorder.state.failNext = 3
		const created = await author.create(COURSE, { slug, title: 'Retried', listed: true })
		expect(created.status).toBe(201)
		await recorder.waitFor([`course:${slug}`], from, 10_000)
		const attempts = recorder.deliveries.slice(from).filter((d) => d.body?.tags?.includes(`course:${slug}`))
		const seen = JSON.stringify(
			recorder.deliveries.slice(from).map((d) => [d.at - recorder.deliveries[from].at, d.status, d.body?.tags]),
		)
		expect(
			attempts.map((d) => d.status),
			seen,
		).toEqual([503, 503, 503, 200])
		const gaps = attempts.slice(1).map((d, i) => d.at - attempts[i].at)
		// 250, 500 and 1000 ms by the schedule; each pause longer than the one before.
		expect(gaps[0]).toBeGreaterThanOrEqual(200)
		expect(gaps[1]).toBeGreaterThan(gaps[0])
		expect(gaps[2]).toBeGreaterThan(gaps[1])

		// An app that takes 3 s to answer: the author's save is answered at once all the same.
		recorder.state.delayMs = 3000
		try {
			const saved = await author.update(COURSE, created.body.data.documentId, { title: 'Retried again' })
			expect(saved.status).toBe(200)
			expect(saved.ms).toBeLessThan(1500)
		} finally {
			recorder.state.delayMs = 0
		}
		expect((await author.remove(COURSE, created.body.data.documentId)).status).toBe(200)
	})

	it('reaches an app that was down when the author saved, once it is back', async () => {
		const slug = `down-${dialect}-${Date.now()}`
		await stack.close()
		const created = await author.create(COURSE, { slug, title: 'While down', listed: true, modules: [] })
		expect(created.status).toBe(201)
		expect(created.ms).toBeLessThan(1500)
		await new Promise((r) => setTimeout(r, 600))
		stack = await start()
		// A new process starts with every tag at version 0: the delivery after it is back moves it.
		await within(8000, async () => stack.tags.version(`course:${slug}`) > 0, 'the retried delivery reached the app')
		expect((await author.remove(COURSE, created.body.data.documentId)).status).toBe(200)
	})
})

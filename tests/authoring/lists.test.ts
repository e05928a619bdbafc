import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_SECRETS } from '#tests/support/env.ts'
import { strapiAdmin, type StrapiAdmin } from '#tests/support/strapi.ts'

// A site's categories and tags (issue 51, decision 0098): lists each site keeps, edited by its
// authors, which its courses list; the walls hold at the stored list and at the course's relation.
const COURSE = 'api::course.course'
const CATEGORY = 'api::category.category'
const TAG = 'api::tag.tag'
const FOREIGN = /belongs to another site/
const OTHER_LIST = /only its own site's categories and tags/
const stamp = Date.now().toString(36)
const api = (site: string, path: string) =>
	fetch(`${process.env.CONTENT_SERVICE_URL}/projects/${TEST_SECRETS.CMS_PROJECT_UUID}/sites/${site}/${path}`, {
		headers: { 'x-api-key': TEST_SECRETS.CMS_API_UUID },
	}).then((r) => r.json() as Promise<any>)

describe("a site's categories and tags", () => {
	let acme: StrapiAdmin
	let globex: StrapiAdmin
	let editor: StrapiAdmin
	let course: { documentId: string; slug: string }
	let ours: { documentId: string; id: number }
	let theirs: { documentId: string; id: number }
	const made: [StrapiAdmin, string, string][] = []

	async function make(who: StrapiAdmin, uid: string, data: object) {
		const res = await who.create(uid, data)
		expect(res.status, JSON.stringify(res.body)).toBe(201)
		made.push([who, uid, res.body.data.documentId])
		return res.body.data
	}
	const listed = async (field = 'categories', locale = 'en') => {
		const res = await acme.call(
			'GET',
			`/content-manager/relations/${COURSE}/${course.documentId}/${field}?locale=${locale}`,
		)
		expect(res.status).toBe(200)
		return (res.body.results as { documentId: string }[]).map((r) => r.documentId)
	}

	beforeAll(async () => {
		acme = await strapiAdmin('author@acme.test')
		globex = await strapiAdmin('author@globex.test')
		editor = await strapiAdmin('editor@platform.test')
		ours = await make(acme, CATEGORY, { name: `Robotics ${stamp}`, nameEs: `Robótica ${stamp}` })
		theirs = await make(globex, CATEGORY, { name: `Secret ${stamp}` })
		course = await make(acme, COURSE, { title: `Lists ${stamp}`, listed: true })
	})
	afterAll(async () => {
		for (const [who, uid, id] of made.reverse()) await who.remove(uid, id, uid === COURSE ? '*' : 'en')
	})

	it("is kept by each site's authors: the site from the author's role, the slug from the name, unique per site", async () => {
		const own = await acme.get(CATEGORY, ours.documentId)
		expect(own.body.data).toMatchObject({ site: 'acme', slug: `robotics-${stamp}`, nameEs: `Robótica ${stamp}` })
		// The same name again in Acme: the next free slug; in Globex: its own, the same slug.
		const again = await make(acme, CATEGORY, { name: `Robotics ${stamp}` })
		expect(again.slug).toBe(`robotics-${stamp}-2`)
		const elsewhere = await make(globex, CATEGORY, { name: `Robotics ${stamp}` })
		expect(elsewhere.slug).toBe(`robotics-${stamp}`)
		// A slug typed that Acme has: refused beside the field.
		const clash = await acme.create(CATEGORY, { name: 'Other', slug: `robotics-${stamp}` })
		expect(clash.status).toBe(400)
		expect(JSON.stringify(clash.body)).toContain('slug')
		const tag = await make(acme, TAG, { name: `Hands-on ${stamp}` })
		expect(tag).toMatchObject({ site: 'acme', slug: `hands-on-${stamp}` })
		// The course form shows what it lists by name (not by the first text field, the site).
		const form = await acme.call('GET', `/content-manager/content-types/${COURSE}/configuration`)
		const { metadatas } = form.body.data.contentType
		expect([metadatas.categories.edit.mainField, metadatas.tags.edit.mainField]).toEqual(['name', 'name'])
	})

	it("keeps another site's list out of reach: listed, read, changed, deleted, moved", async () => {
		const list = (await acme.list(CATEGORY)).body.results as { site: string; documentId: string }[]
		expect(list.map((c) => c.site).every((s) => s === 'acme')).toBe(true)
		expect(list.map((c) => c.documentId)).not.toContain(theirs.documentId)
		for (const res of [
			await acme.get(CATEGORY, theirs.documentId),
			await acme.update(CATEGORY, theirs.documentId, { name: 'Taken' }),
			await acme.remove(CATEGORY, theirs.documentId, 'en'),
			await acme.call('POST', `/content-manager/collection-types/${CATEGORY}/actions/bulkDelete`, {
				documentIds: [theirs.documentId],
			}),
			await acme.call('POST', `/content-manager/collection-types/${CATEGORY}/clone/${theirs.documentId}`, {
				name: `Copied ${stamp}`,
			}),
			await acme.call('GET', `/content-manager/collection-types/${CATEGORY}/${theirs.id}`),
		]) {
			expect(res.status).toBe(403)
			expect(JSON.stringify(res.body)).toMatch(FOREIGN)
		}
		expect((await globex.get(CATEGORY, theirs.documentId)).body.data.name).toBe(`Secret ${stamp}`)
		const moved = await acme.update(CATEGORY, ours.documentId, { site: 'globex' })
		expect(moved.status).toBe(403)
		// The home page's counts are of the author's sites: another site's new tag does not move them.
		const counted = async () => (await acme.call('GET', '/content-manager/homepage/count-documents')).body.data
		const before = await counted()
		await make(globex, TAG, { name: `Counted ${stamp}` })
		expect(await counted()).toEqual(before)
		await make(acme, TAG, { name: `Counted ${stamp}` })
		expect(await counted()).toEqual({ ...before, published: before.published + 1 })
		// The picker of a course's categories offers only the author's site's.
		const offered = await acme.call('GET', `/content-manager/relations/${COURSE}/categories?pageSize=100`)
		expect(offered.status).toBe(200)
		const ids = (offered.body.results as { documentId: string }[]).map((r) => r.documentId)
		expect(ids).toContain(ours.documentId)
		expect(ids).not.toContain(theirs.documentId)
	})

	it("refuses another site's category on a course in every spelling, whoever asks, and changes nothing", async () => {
		const spellings = [
			{ connect: [{ documentId: theirs.documentId }] },
			{ connect: [{ id: theirs.id }] },
			{ connect: [theirs.documentId] },
			{ set: [{ documentId: theirs.documentId }] },
			[theirs.documentId],
			[theirs.id],
			[String(theirs.id)],
			{ connect: [{ documentId: ours.documentId }, { documentId: theirs.documentId }] },
			// Strapi's other forms: one object, one reference, an empty documentId beside the id it then uses.
			{ documentId: theirs.documentId },
			{ id: theirs.id },
			theirs.documentId,
			theirs.id,
			{ connect: [{ documentId: '', id: theirs.id }] },
			{ set: theirs.documentId, connect: [] },
		]
		for (const [who, name] of [
			[acme, 'author'],
			[editor, 'platform editor'],
		] as const)
			for (const categories of spellings) {
				const res = await who.update(COURSE, course.documentId, { categories })
				expect(res.status, `${name} ${JSON.stringify(categories)}`).toBe(403)
				expect(JSON.stringify(res.body)).toMatch(OTHER_LIST)
			}
		// Forms that cannot be checked are refused too: an object where an id belongs, a string Strapi would
		// read as a number, an object that is no relation.
		for (const categories of [
			{ connect: [{ documentId: { $ne: 'x' } }] },
			[`${theirs.id}abc`],
			{ connect: [{ id: 1.5 }] },
			{ anything: [theirs.documentId] },
		]) {
			const odd = await acme.update(COURSE, course.documentId, { categories })
			expect(odd.status, JSON.stringify(categories)).toBe(403)
		}
		expect(await listed()).toEqual([])
		// A new course of Acme's naming Globex's category is not made.
		const born = await acme.create(COURSE, { title: `Born ${stamp}`, categories: [theirs.documentId] })
		expect(born.status).toBe(403)
	})

	it("lists its own site's categories in every translation; the API serves each name in the asked language", async () => {
		const en = await acme.update(COURSE, course.documentId, {
			categories: { connect: [{ documentId: ours.documentId }] },
		})
		expect(en.status, JSON.stringify(en.body)).toBe(200)
		// A translation made after gets the list; its form's empty change leaves it.
		const es = await acme.update(
			COURSE,
			course.documentId,
			{ title: `Listas ${stamp}`, categories: { connect: [], disconnect: [] } },
			'es',
		)
		expect(es.status, JSON.stringify(es.body)).toBe(200)
		expect(await listed('categories', 'es')).toEqual([ours.documentId])
		for (const locale of ['en', 'es']) expect((await acme.publish(COURSE, course.documentId, locale)).status).toBe(200)
		const slug = (await acme.get(COURSE, course.documentId)).body.data.slug
		const served = async (locale: string) => (await api('acme', `courses/${slug}?locale=${locale}`)).data?.categories
		expect(await served('es')).toEqual([{ slug: `robotics-${stamp}`, name: `Robótica ${stamp}` }])
		expect(await served('fr')).toEqual([{ slug: `robotics-${stamp}`, name: `Robotics ${stamp}` }])
		// Renamed in the list: the course's answer follows.
		expect((await acme.update(CATEGORY, ours.documentId, { nameFr: `Robotique ${stamp}` })).status).toBe(200)
		await expect
			.poll(() => served('fr'), { timeout: 10_000 })
			.toEqual([{ slug: `robotics-${stamp}`, name: `Robotique ${stamp}` }])
		// Nor move the category Acme's course lists to another site, or to none (then Globex's authors
		// would name what Acme's catalogue shows); a category no course lists, it may.
		for (const site of ['initech', null, '']) {
			const away = await editor.update(CATEGORY, ours.documentId, { site })
			expect(away.status, JSON.stringify(site)).toBe(403)
			expect(JSON.stringify(away.body)).toMatch(/stays in their site/)
		}
		expect((await acme.get(CATEGORY, ours.documentId)).body.data.site).toBe('acme')
		const unlisted = await make(acme, CATEGORY, { name: `Unlisted ${stamp}` })
		expect((await editor.update(CATEGORY, unlisted.documentId, { site: 'globex' })).status).toBe(200)
		made.push([globex, CATEGORY, unlisted.documentId])
		// A malformed disconnect is refused, not a server error.
		for (const categories of [{ disconnect: [{ $ne: 1 }] }, { disconnect: [{ id: { $gt: 0 } }] }]) {
			const odd = await acme.update(COURSE, course.documentId, { categories })
			expect(odd.status, JSON.stringify(categories)).toBe(403)
		}
		// A platform editor cannot move the course to another site while it lists Acme's category.
		const moved = await editor.update(COURSE, course.documentId, { site: 'globex' })
		expect(moved.status).toBe(403)
		expect(JSON.stringify(moved.body)).toMatch(OTHER_LIST)
		expect((await acme.get(COURSE, course.documentId)).body.data.site).toBe('acme')
		// Taken off in Spanish: off in English too.
		const off = await acme.update(
			COURSE,
			course.documentId,
			{ categories: { disconnect: [{ documentId: ours.documentId }] } },
			'es',
		)
		expect(off.status).toBe(200)
		expect(await listed('categories', 'en')).toEqual([])
	})
})

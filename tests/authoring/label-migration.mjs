/**
 * Run by label-migration.test.ts in cms/strapi, on a database of its own (CMS_DATABASE_FILE or
 * CMS_DATABASE_URL): Strapi loaded without its HTTP server, courses stored as the model before
 * decision 0098 stored them (a `course.label` component per category and tag, per version), the
 * boot migration run twice, and what is stored then printed as one JSON line.
 */
import { createRequire } from 'node:module'
import path from 'node:path'

const cms = createRequire(path.join(process.cwd(), 'package.json'))
const { createStrapi, compileStrapi } = cms('@strapi/strapi')
const COURSE = 'api::course.course'

async function main() {
	const strapi = await createStrapi(await compileStrapi()).load()
	strapi.log.level = 'error'
	const knex = strapi.db.connection
	const docs = strapi.documents(COURSE)
	// One label: its component row and its link to a course version, at a place in its list.
	async function label(version, field, order, slug, name) {
		const [row] = await knex('components_course_labels').insert({ slug, name }).returning('id')
		const cmp = typeof row === 'object' ? row.id : row
		await knex('courses_cmps').insert({
			entity_id: version.id,
			cmp_id: cmp,
			component_type: 'course.label',
			field,
			order,
		})
	}
	const versions = async (documentId) =>
		knex('courses').where({ document_id: documentId }).select('id', 'locale', 'published_at')

	// Acme's course in en and es, published: en lists two categories and a tag; es names one of them
	// in Spanish (and an extra one the API never served: en's list rules).
	const acme = await docs.create({ locale: 'en', data: { site: 'acme', slug: 'old-course', title: 'Old course' } })
	await docs.update({ documentId: acme.documentId, locale: 'es', data: { title: 'Curso antiguo' } })
	await docs.publish({ documentId: acme.documentId, locale: '*' })
	for (const v of await versions(acme.documentId)) {
		if (v.locale === 'en') {
			await label(v, 'categories', 1, 'web-development', 'Web development')
			await label(v, 'categories', 2, 'design', 'Design')
			await label(v, 'tags', 1, 'beginner', 'Beginner')
		} else {
			await label(v, 'categories', 1, 'web-development', 'Desarrollo web')
			await label(v, 'categories', 2, 'only-in-spanish', 'Solo en español')
		}
	}
	// Globex's course names the same slug: a list of Globex's own.
	const globex = await docs.create({ locale: 'en', data: { site: 'globex', slug: 'other', title: 'Other' } })
	for (const v of await versions(globex.documentId)) await label(v, 'categories', 1, 'web-development', 'Web dev')
	// Acme already keeps "design" in its list (a second boot, or an author's): kept, not made twice.
	await strapi.db.query('api::category.category').create({
		data: { site: 'acme', slug: 'design', name: 'Design (kept)', publishedAt: new Date() },
	})

	const migration = strapi.service('api::authoring.editor-migration')
	await migration.run()
	await migration.run()

	const lists = async (uid) =>
		(await strapi.db.query(uid).findMany({ orderBy: { id: 'asc' } })).map(({ site, slug, name, nameEs }) => ({
			site,
			slug,
			name,
			nameEs,
		}))
	const listedBy = async (documentId) =>
		(
			await strapi.db.query(COURSE).findMany({
				where: { documentId },
				populate: { categories: { select: ['slug'] }, tags: { select: ['slug'] } },
				orderBy: { id: 'asc' },
			})
		).map((v) => ({
			locale: v.locale,
			published: Boolean(v.publishedAt),
			categories: v.categories.map((c) => c.slug),
			tags: v.tags.map((t) => t.slug),
		}))
	const out = {
		categories: await lists('api::category.category'),
		tags: await lists('api::tag.tag'),
		acme: await listedBy(acme.documentId),
		globex: await listedBy(globex.documentId),
		leftLinks: Number((await knex('courses_cmps').where({ component_type: 'course.label' }).count('* as n'))[0].n),
		leftLabels: Number((await knex('components_course_labels').count('* as n'))[0].n),
	}
	await strapi.destroy()
	console.log(`migration: ${JSON.stringify(out)}`)
}

main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error)
		process.exit(1)
	})

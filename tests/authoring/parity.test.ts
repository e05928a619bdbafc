import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as schemas from '#app/content/content.ts'
import { loadContent, startCms } from '#cms/server.ts'
import { CMS_LOCALES } from '#cms/view.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'

/**
 * Every field authorable (issue 45): every document of cms/content/, in every locale, asked of
 * Strapi's content API (seeded from cms/content/ by cms/strapi/scripts/seed.js) and of the local
 * content service (cms/server.ts, started here), compared field by field. A field one of them
 * serves and the other does not fails here until both do.
 *
 * Normalized before comparing, and nothing else:
 * - the service's own origin in asset URLs (`http://127.0.0.1:<port>/api/v1/projects/<p>/sites/<s>`
 *   becomes `<site>`): each service names its own address; the rest of the URL (the asset's id)
 *   is compared;
 * - `updatedAt`, checked to be an ISO date-time on both sides, then ignored: the local service
 *   serves the file's date, Strapi stamps its own write time when the seed saves the document;
 * - an asset's `etag` and `last-modified`: each service derives them from its own copy (the
 *   file's mtime, Strapi's upload hash and time); the bytes are compared by their hash instead.
 *
 * It reads the seeded content only: scripts/test-authoring.sh runs it before the tests that write.
 */
const STRAPI_API = process.env.CONTENT_SERVICE_URL!
const KEY = process.env.CMS_API_UUID || TEST_SECRETS.CMS_API_UUID
const PROJECT = process.env.CMS_PROJECT_UUID || TEST_SECRETS.CMS_PROJECT_UUID
const content = loadContent()

interface Answer {
	status: number
	body: unknown
}

/** The question's path below the site, and the schema of its answer (for the coverage check). */
interface Question {
	site: string
	path: string
	schema: z.ZodType
}

function questions(): Question[] {
	const out: Question[] = []
	for (const [site, docs] of content) {
		const ask = (path: string, schema: z.ZodType) =>
			CMS_LOCALES.forEach((l) =>
				out.push({ site, path: `${path}${path.includes('?') ? '&' : '?'}locale=${l}`, schema }),
			)
		ask('site', z.object({ data: schemas.site }))
		ask('page-hierarchy', z.object({ data: z.array(schemas.pageHierarchyNode) }))
		ask('courses?pageSize=100', schemas.paginated(schemas.courseSummary))
		ask('pages?pageSize=100', schemas.paginated(schemas.pageSummary))
		ask('blog-posts?pageSize=100', schemas.paginated(schemas.blogPostSummary))
		for (const c of docs.courses) {
			ask(`courses/${c.slug}`, z.object({ data: schemas.course }))
			for (const m of c.modules ?? [])
				for (const e of m.entries ?? []) ask(`courses/${c.slug}/entries/${e.slug}`, z.object({ data: schemas.entry }))
		}
		for (const p of docs.pages) ask(`pages/${p.slug}`, z.object({ data: schemas.page }))
		for (const b of docs.blog) ask(`blog-posts/${b.slug}`, z.object({ data: schemas.blogPost }))
	}
	return out
}

const siteBase = (api: string, site: string) => `${api}/projects/${PROJECT}/sites/${site}`

async function ask(api: string, site: string, path: string): Promise<Answer> {
	const res = await fetch(`${siteBase(api, site)}/${path}`, { headers: { 'x-api-key': KEY } })
	const text = await res.text()
	let body: unknown = text
	try {
		body = JSON.parse(text)
	} catch {
		// compared as text
	}
	return { status: res.status, body: normalize(body, siteBase(api, site)) }
}

const ISO = z.iso.datetime({ offset: true })

function normalize(value: unknown, base: string): unknown {
	if (typeof value === 'string') return value.split(base).join('<site>')
	if (Array.isArray(value)) return value.map((v) => normalize(v, base))
	if (value && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [
				k,
				k === 'updatedAt'
					? ISO.safeParse(v).success
						? '<updatedAt>'
						: `not a date: ${String(v)}`
					: normalize(v, base),
			]),
		)
	return value
}

/** Every field that differs, as `path: local ≠ strapi` (a field only one serves shows as `(absent)`). */
function differences(local: unknown, strapi: unknown, path = ''): string[] {
	const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 160))
	if (Array.isArray(local) && Array.isArray(strapi)) {
		const out = local.flatMap((v, i) => differences(v, strapi[i], `${path}[${i}]`))
		for (let i = local.length; i < strapi.length; i++) out.push(`${path}[${i}]: (absent) ≠ ${show(strapi[i])}`)
		return out
	}
	const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
	if (isObject(local) && isObject(strapi)) {
		const a = local as Record<string, unknown>
		const b = strapi as Record<string, unknown>
		return [...new Set([...Object.keys(a), ...Object.keys(b)])]
			.sort()
			.flatMap((k) => differences(a[k], b[k], path ? `${path}.${k}` : k))
	}
	return JSON.stringify(local) === JSON.stringify(strapi) ? [] : [`${path}: ${show(local)} ≠ ${show(strapi)}`]
}

/** The field paths of a zod schema (`data.modules[].entries[].due.at`), unions and optionals unwrapped. */
function fieldPaths(schema: unknown, path = '', inLazy = false): string[] {
	const s = schema as any
	const down = (inner: unknown, p = path) => fieldPaths(inner, p, inLazy)
	if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) return down(s.unwrap())
	// A recursive schema (the page hierarchy's children): its fields once, at the top level.
	if (s instanceof z.ZodLazy) return inLazy ? [] : fieldPaths(s._zod.def.getter(), path, true)
	if (s instanceof z.ZodArray) return down(s.element, `${path}[]`)
	if (s instanceof z.ZodUnion) return [...new Set(s.options.flatMap((o: unknown) => down(o)))]
	if (s instanceof z.ZodObject)
		return Object.entries(s.shape).flatMap(([k, v]) => {
			const p = path ? `${path}.${k}` : k
			return [p, ...down(v, p)]
		})
	return []
}

function servedPaths(value: unknown, path = ''): string[] {
	if (Array.isArray(value)) return value.flatMap((v) => servedPaths(v, `${path}[]`))
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) => {
			const p = path ? `${path}.${k}` : k
			return [p, ...servedPaths(v, p)]
		})
	return []
}

describe('Strapi serves every field of every document as the local content service does', () => {
	let local: Awaited<ReturnType<typeof startCms>>
	const asked = questions()

	beforeAll(async () => {
		local = await startCms({ apiKey: KEY, projectUuid: PROJECT })
	})
	afterAll(() => local?.close())

	it('answers every question about cms/content/, in every locale, field by field the same', async () => {
		const compare = async (q: Question) => {
			const [a, b] = await Promise.all([ask(local.url, q.site, q.path), ask(STRAPI_API, q.site, q.path)])
			const where = `${q.site}/${q.path}`
			return [
				...(a.status === 200 ? [] : [`${where}: the local service answered ${a.status}`]),
				...differences(a, b).map((d) => `${where}: ${d}`),
			]
		}
		// A few at a time: Strapi answers one course's questions from one read of it.
		const found: string[] = []
		for (let i = 0; i < asked.length; i += 6)
			found.push(...(await Promise.all(asked.slice(i, i + 6).map(compare))).flat())
		// Every locale of every document: the walk asked what it meant to.
		expect(asked.length).toBeGreaterThan(100)
		expect(found, `${found.length} field(s) differ:\n${found.join('\n')}`).toEqual([])
	})

	it('serves every asset of cms/content/ with the same bytes and headers', async () => {
		const found: string[] = []
		for (const [site, docs] of content)
			for (const asset of docs.assets) {
				const [a, b] = await Promise.all(
					[local.url, STRAPI_API].map(async (api) => {
						const res = await fetch(`${siteBase(api, site)}/assets/${asset.id}`, { headers: { 'x-api-key': KEY } })
						const bytes = Buffer.from(await res.arrayBuffer())
						const headers = Object.fromEntries(
							['content-type', 'content-length', 'accept-ranges', 'x-asset-course', 'x-asset-filename'].map((h) => [
								h,
								res.headers.get(h),
							]),
						)
						return { status: res.status, headers, sha: createHash('sha256').update(bytes).digest('hex') }
					}),
				)
				found.push(...differences(a, b).map((d) => `${site}/assets/${asset.id}: ${d}`))
			}
		expect(found, found.join('\n')).toEqual([])
	})

	it('covers every field of the app content schemas with some demo document (else parity proves nothing of it)', async () => {
		const declared = new Set<string>()
		const served = new Set<string>()
		for (const q of asked) {
			const kind = q.path.replace(/\?.*$/, '').replace(/\/[^/]+/g, '/_')
			for (const p of fieldPaths(q.schema)) declared.add(`${kind} ${p}`)
			const { body } = await ask(local.url, q.site, q.path)
			for (const p of servedPaths(body)) served.add(`${kind} ${p}`)
		}
		const missing = [...declared].filter((p) => !served.has(p))
		expect(missing, `fields no demo document serves:\n${missing.join('\n')}`).toEqual([])
	})
})

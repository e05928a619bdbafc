'use strict'
/**
 * Imports the demo content of cms/content/ into Strapi, and creates the per-tenant author roles
 * and the demo admin accounts. Idempotent: what exists is left as it is (an author's edits stay),
 * what is missing is created, so running it twice changes nothing the second time.
 *
 *   node scripts/seed.js            (CMS_CONTENT_DIR to read another folder)
 *
 * Runs Strapi without its HTTP server (migrations included), so it may run before `strapi start`.
 */
const { readdirSync, readFileSync, existsSync, statSync } = require('node:fs')
const path = require('node:path')
const { createStrapi, compileStrapi } = require('@strapi/strapi')

// No webhooks from the seed: it imports into a CMS no app has read from yet (an app that has
// answers cached refreshes them within 60 s); stored ones would reach the tests' apps later.
process.env.LMS_APP_URLS = ''
const CONTENT_DIR = path.resolve(process.env.CMS_CONTENT_DIR ?? path.join(__dirname, '..', '..', 'content'))
const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'zh']
const PASSWORD = process.env.CMS_DEMO_PASSWORD || 'Authoring-demo-2026'
const UID = {
	site: 'api::site.site',
	course: 'api::course.course',
	page: 'api::page.page',
	post: 'api::blog-post.blog-post',
	category: 'api::category.category',
	tag: 'api::tag.tag',
}
const CONTENT_TYPES = [UID.course, UID.page, UID.post]

const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'))
const readDir = (dir) => {
	const files = existsSync(dir)
		? readdirSync(dir)
				.filter((f) => f.endsWith('.json'))
				.sort()
				.map((f) => readJson(path.join(dir, f)))
		: []
	return existsSync(`${dir}.json`) ? [...files, ...readJson(`${dir}.json`)] : files
}
const isLocalized = (v) => v && typeof v === 'object' && !Array.isArray(v) && 'en' in v
/** A localized value in one locale: null when it has none there (the API falls back to en). */
const t = (value, locale) => (isLocalized(value) ? (value[locale] ?? null) : locale === 'en' ? (value ?? null) : null)
/** The locales any localized field of a JSON document has. */
const localesOf = (doc) => {
	const found = new Set(['en'])
	const walk = (v) => {
		if (isLocalized(v)) for (const k of Object.keys(v)) found.add(k)
		else if (Array.isArray(v)) v.forEach(walk)
		else if (v && typeof v === 'object') Object.values(v).forEach(walk)
	}
	walk(doc)
	return LOCALES.filter((l) => found.has(l))
}

async function main() {
	const started = Date.now()
	const strapi = await createStrapi(await compileStrapi()).load()
	strapi.log.level = 'warn'
	const counts = { created: 0, kept: 0, files: 0 }
	try {
		await strapi
			.plugin('upload')
			.service('upload')
			.setSettings({ sizeOptimization: false, responsiveDimensions: false, autoOrientation: false })
		const sites = readdirSync(CONTENT_DIR).filter((s) => statSync(path.join(CONTENT_DIR, s)).isDirectory())
		for (const site of sites) await seedSite(strapi, site, counts)
		await seedPeople(
			strapi,
			sites.filter((s) => s !== '_apex'),
		)
	} finally {
		await strapi.destroy()
	}
	console.log(
		`seed: ${counts.created} documents created, ${counts.kept} already there, ${counts.files} files uploaded (${Date.now() - started} ms)`,
	)
}

async function folder(strapi, name, parent) {
	const existing = await strapi.db.query('plugin::upload.folder').findOne({ where: { name, parent: parent ?? null } })
	return (
		existing ??
		strapi
			.plugin('upload')
			.service('folder')
			.create({ name, parent: parent ?? null })
	)
}

async function seedSite(strapi, site, counts) {
	const dir = path.join(CONTENT_DIR, site)
	// Assets: the site's folder, and one folder per course for its assets.
	const root = await folder(strapi, site)
	const urls = new Map()
	const assets = existsSync(path.join(dir, 'assets.json')) ? readJson(path.join(dir, 'assets.json')) : []
	for (const asset of assets) {
		const target = asset.courseSlug ? await folder(strapi, asset.courseSlug, root.id) : root
		const name = asset.filename ?? asset.file
		let file = await strapi.db.query('plugin::upload.file').findOne({ where: { name, folder: target.id } })
		if (!file) {
			const filepath = path.join(dir, 'assets', asset.file)
			;[file] = await strapi
				.plugin('upload')
				.service('upload')
				.upload({
					data: { fileInfo: { name, folder: target.id, alternativeText: name.replace(/\.[^.]*$/, '') } },
					files: { filepath, originalFilename: name, mimetype: asset.contentType, size: statSync(filepath).size },
				})
			counts.files++
		}
		urls.set(asset.id, file)
	}
	const media = (ref) => (ref && typeof ref === 'object' && urls.get(ref.asset)?.id) || null
	// {{asset:<id>}} becomes the file's upload URL, as the editor's own "insert media" writes it.
	const text = (v) =>
		typeof v === 'string' ? v.replace(/\{\{asset:([a-z0-9-]+)\}\}/g, (m, id) => urls.get(id)?.url ?? m) : v
	const tt = (value, locale) => text(t(value, locale))

	// The site document.
	const siteJson = readJson(path.join(dir, 'site.json'))
	await upsert(strapi, UID.site, { key: site }, siteJson, counts, {
		shared: () => ({
			key: site,
			theme_color: siteJson.theme_color,
			background_color: siteJson.background_color,
			accent_color: siteJson.accent_color ?? null,
			security_contact: siteJson.security_contact ?? null,
			favicon: media(siteJson.favicon),
			icon: media(siteJson.icon),
			og_image: media(siteJson.og_image),
		}),
		localized: (l) => ({
			name: tt(siteJson.name, l),
			short_name: tt(siteJson.short_name, l),
			description: tt(siteJson.description, l),
		}),
	})

	const courses = readDir(path.join(dir, 'courses'))
	// The site's lists of categories and tags (decision 0098), from what its courses name.
	const categories = await seedList(
		strapi,
		UID.category,
		site,
		courses.flatMap((c) => c.categories ?? []),
		counts,
	)
	const tags = await seedList(
		strapi,
		UID.tag,
		site,
		courses.flatMap((c) => c.tags ?? []),
		counts,
	)
	for (const c of courses)
		await upsert(strapi, UID.course, { site, slug: c.slug }, c, counts, {
			shared: () => ({
				site,
				slug: c.slug,
				listed: c.listed !== false,
				priceAmount: c.price?.amount ?? null,
				priceCurrency: c.price?.currency ?? null,
				estimatedMinutes: c.estimatedMinutes ?? null,
				// The pass rule as plain fields (decision 0073): what the course's file states, else null.
				passQuizzes: c.passRule?.quizzes ?? null,
				passAssignments: c.passRule?.assignments ?? null,
				passMinimumAverage: c.passRule?.minimumAverage ?? null,
				// Absent stays absent (null): the API then sends no `featured`, as the local service does.
				featured: typeof c.featured === 'boolean' ? c.featured : null,
				image: media(c.image),
				publicationDate: c.publishedAt ?? null,
				archivedAt: c.archivedAt ?? null,
				// The same list in every translation.
				categories: (c.categories ?? []).map((label) => categories.get(label.slug)),
				tags: (c.tags ?? []).map((label) => tags.get(label.slug)),
			}),
			localized: (l) => ({
				title: tt(c.title, l),
				summary: tt(c.summary, l),
				description: tt(c.description, l),
				modules: modulesIn(c, l, tt),
				certificate: c.certificate
					? { enabled: c.certificate.enabled === true, criteria: tt(c.certificate.criteria, l) }
					: null,
			}),
		})
	for (const p of readDir(path.join(dir, 'pages')))
		await upsert(strapi, UID.page, { site, slug: p.slug }, p, counts, {
			shared: () => ({
				site,
				slug: p.slug,
				listed: p.listed !== false,
				parent: p.parent ?? null,
				order: p.order ?? 0,
				archivedAt: p.archivedAt ?? null,
			}),
			localized: (l) => ({ title: tt(p.title, l), body: tt(p.body, l) }),
		})
	for (const b of readDir(path.join(dir, 'blog')))
		await upsert(strapi, UID.post, { site, slug: b.slug }, b, counts, {
			shared: () => ({
				site,
				slug: b.slug,
				author: b.author ?? null,
				hero: media(b.hero),
				publicationDate: b.publishedAt ?? null,
				archivedAt: b.archivedAt ?? null,
			}),
			localized: (l) => ({ title: tt(b.title, l), excerpt: tt(b.excerpt, l), body: tt(b.body, l) }),
		})
}

/**
 * A site's list of categories or tags: one document per slug its courses name (its names from the
 * first that names it), made when missing. Answers each slug's documentId.
 */
async function seedList(strapi, uid, site, labels, counts) {
	const ids = new Map()
	for (const label of labels) {
		if (ids.has(label.slug)) continue
		const [existing] = await strapi
			.documents(uid)
			.findMany({ filters: { site, slug: label.slug }, fields: ['documentId'] })
		if (existing) {
			counts.kept++
			ids.set(label.slug, existing.documentId)
			continue
		}
		const names = Object.fromEntries(
			LOCALES.filter((l) => l !== 'en').map((l) => [`name${l[0].toUpperCase()}${l.slice(1)}`, t(label.name, l)]),
		)
		const made = await strapi
			.documents(uid)
			.create({ data: { site, slug: label.slug, name: t(label.name, 'en'), ...names } })
		counts.created++
		ids.set(label.slug, made.documentId)
	}
	return ids
}

/**
 * A course's modules in one locale. In en: the whole tree. In another locale: the same tree by
 * slug and key, with that locale's texts only, and only the parts that have any (what it lacks,
 * the API serves in en, field by field).
 */
function modulesIn(course, l, tt) {
	const keep = (o) =>
		Object.fromEntries(
			Object.entries(o).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)),
		)
	const modules = (course.modules ?? []).map((m) => {
		const entries = (m.entries ?? []).map((e) => {
			const quiz = e.quiz && {
				maxAttempts: e.quiz.maxAttempts,
				passingScore: e.quiz.passingScore,
				revealAnswers: e.quiz.revealAnswers ?? null,
				showAnswers: e.quiz.showAnswers ?? null,
				shuffle: e.quiz.shuffle === true,
				questions: e.quiz.questions.map((q) =>
					keep({
						key: q.id,
						type: q.type,
						prompt: tt(q.prompt, l),
						explanation: tt(q.explanation, l),
						// The right answer is marked on its option (decision 0073).
						options: (q.options ?? [])
							.map((o) => keep({ key: o.id, text: tt(o.text, l), correct: o.id === q.correctOptionId ? true : null }))
							.filter((o) => o.text),
						correct: q.correct ?? null,
						acceptedAnswers: q.acceptedAnswers ? q.acceptedAnswers.join('\n') : null,
					}),
				),
			}
			if (quiz && l !== 'en') quiz.questions = quiz.questions.filter((q) => q.prompt)
			const assignment = e.assignment && {
				graded: e.assignment.graded === true,
				maxScore: e.assignment.maxScore ?? null,
				passingScore: e.assignment.passingScore ?? null,
				allowedFileTypes: e.assignment.allowedFileTypes ? e.assignment.allowedFileTypes.join(', ') : null,
				instructions: tt(e.assignment.instructions, l),
			}
			return keep({
				slug: e.slug,
				type: e.type,
				title: tt(e.title, l),
				body: tt(e.body, l),
				estimatedMinutes: e.estimatedMinutes ?? null,
				dueAt: e.dueAt ?? null,
				dueDaysAfterEnrollment: e.dueDaysAfterEnrollment ?? null,
				quiz: quiz ? keep(quiz) : null,
				assignment: assignment ? keep(assignment) : null,
			})
		})
		return {
			slug: m.slug,
			title: tt(m.title, l),
			entries: l === 'en' ? entries : entries.filter((e) => e.title || e.body || e.quiz?.questions?.length),
		}
	})
	return l === 'en' ? modules : modules.filter((m) => m.title || m.entries.length).map((m) => keep(m))
}

/**
 * Creates a document when no document matches `where` (in any state): en first, then each other
 * locale that has any text (its title may be empty: a category's name or the certificate's
 * criteria may be translated when the title is not; the API serves the rest from en), then
 * publishes every locale of it when the JSON says published or archived. An existing document is
 * left alone.
 */
async function upsert(strapi, uid, where, json, counts, { shared, localized }) {
	const docs = strapi.documents(uid)
	const [existing] = await docs.findMany({ filters: where, locale: 'en', status: 'draft', fields: ['documentId'] })
	if (existing) {
		counts.kept++
		return
	}
	const { documentId } = await docs.create({ locale: 'en', data: { ...shared(), ...localized('en') } })
	for (const l of localesOf(json).filter((l) => l !== 'en'))
		await docs.update({ documentId, locale: l, data: { ...shared(), ...localized(l) } })
	const hasStatus = strapi.contentType(uid).options?.draftAndPublish
	if (hasStatus && (json.status === 'published' || json.status === 'archived'))
		await docs.publish({ documentId, locale: '*' })
	counts.created++
}

/**
 * The Editor role's permissions, one role per tenant ("Authors: <key>", api::authoring.provisioning)
 * and the demo admin accounts (README "Authoring courses").
 */
async function seedPeople(strapi, tenants) {
	const roles = strapi.service('admin::role')
	const users = strapi.service('admin::user')
	const editor = await strapi.db.query('admin::role').findOne({ where: { code: 'strapi-editor' } })
	const superAdmin = await strapi.db.query('admin::role').findOne({ where: { code: 'strapi-super-admin' } })
	const editorPermissions = await strapi.db.query('admin::permission').findMany({ where: { role: editor.id } })
	const localized = new Set([...CONTENT_TYPES, UID.site])
	// Strapi gave the Editor role create, read and update (with the fields of each type) and no
	// delete or publish; and only the locales there were at its creation (en): i18n lets a role
	// write a localized type only in the locales its permission lists.
	const explorer = (action) => `plugin::content-manager.explorer.${action}`
	const base = editorPermissions
		.filter(
			(p) => !localized.has(p.subject) || [explorer('create'), explorer('read'), explorer('update')].includes(p.action),
		)
		.map((p) => ({
			action: p.action,
			actionParameters: p.actionParameters ?? {},
			subject: p.subject,
			properties: localized.has(p.subject) ? { ...p.properties, locales: LOCALES } : (p.properties ?? {}),
			conditions: p.conditions ?? [],
		}))
	const extra = (subjects, actions) =>
		subjects.flatMap((subject) =>
			actions.map((a) => ({
				action: explorer(a),
				actionParameters: {},
				subject,
				properties: { locales: LOCALES },
				conditions: [],
			})),
		)
	// A site's categories and tags are not translated: no locales.
	const lists = [UID.category, UID.tag].map((subject) => ({
		action: explorer('delete'),
		actionParameters: {},
		subject,
		properties: {},
		conditions: [],
	}))
	await roles.assignPermissions(editor.id, [
		...base,
		...extra(CONTENT_TYPES, ['delete', 'publish']),
		...extra([UID.site], ['delete']),
		...lists,
	])

	for (const site of tenants) {
		// The tenant's authors' role, as the app's provisioning makes it (api::authoring.provisioning).
		const { role } = await strapi.service('api::authoring.provisioning').ensureRole(site)
		await account(users, `author@${site}.test`, 'Author', site, role.id)
	}
	await account(users, 'editor@platform.test', 'Platform', 'editor', editor.id)
	await account(users, 'root@platform.test', 'Platform', 'admin', superAdmin.id)

	async function account(users, email, firstname, lastname, roleId) {
		const existing = await strapi.db.query('admin::user').findOne({ where: { email } })
		if (existing) return
		await users.create({ email, firstname, lastname, password: PASSWORD, isActive: true, roles: [roleId] })
	}
}

// Strapi leaves timers behind (on PostgreSQL one asks its closed pool for a connection a minute
// later and fails): the seed is done once main() is.
main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error)
		process.exit(1)
	})

/**
 * A tenant's place in the CMS, made and kept by the app (docs/decisions/0053-tenant-authoring.md):
 * its site document, its authors' role (`Authors: <key>`, src/utils/tenants.ts) and its media-library
 * folder. Every call states what should be and makes only what is missing, so the app's job may run
 * it as often as it is retried. A suspended or archived tenant's role is renamed `Suspended authors:
 * <key>` and loses its permissions: its authors keep their accounts but reach none of its
 * documents or files (and the "own sites" condition no longer names the site); its content is kept.
 * The seed (scripts/seed.js) makes the demo tenants' roles with ensureRole.
 */
import type { Core } from '@strapi/strapi'
import { CONDITION, type Status } from '../../../utils/tenants'
import { LOCALES } from '../../../utils/view'

const SITE = 'api::site.site'
// With the site's own lists of categories and tags (decision 0098), which its courses name.
const CONTENT_TYPES = [
	'api::course.course',
	'api::page.page',
	'api::blog-post.blog-post',
	'api::category.category',
	'api::tag.tag',
]
const FOLDER = 'plugin::upload.folder'
// The site document's fields the app sets (which site it is, its tenant's time zone): authors read them.
const APP_SET = ['key', 'timeZone']
const explorer = (action: string) => `plugin::content-manager.explorer.${action}`
// What the Editor role Strapi makes gives for the media library.
const UPLOAD_ACTIONS = [
	'plugin::upload.read',
	'plugin::upload.configure-view',
	'plugin::upload.assets.create',
	'plugin::upload.assets.update',
	'plugin::upload.assets.download',
	'plugin::upload.assets.copy-link',
]

/** Strapi's admin roles, users and permissions, as far as provisioning reads them. */
type Role = { id: number; name: string }
type User = { id: number; isActive: boolean; registrationToken?: string | null; roles: Role[] }
type Permission = { action: string; subject: string | null; properties?: { fields?: string[] } }

const roleName = (key: string) => `Authors: ${key}`
const suspendedName = (key: string) => `Suspended authors: ${key}`

/**
 * An authors' role's permissions, each limited by the "own sites" condition: the content types'
 * create, read, update, delete and publish in every locale; their site document's read and update
 * (never its key, which site it is, nor its time zone, the app's); the media library (api::authoring.media-scope keeps it to the
 * site's folder).
 */
function authorPermissions(strapi: Core.Strapi) {
	const localized = (uid: string | null) =>
		Boolean(
			(strapi.contentTypes[uid as keyof typeof strapi.contentTypes]?.pluginOptions?.i18n as { localized?: boolean })
				?.localized,
		)
	const actions = strapi
		.service('admin::permission')
		.actionProvider.values()
		.filter((a: { section: string }) => a.section === 'contentTypes')
	const wanted = (p: Permission) =>
		CONTENT_TYPES.includes(p.subject ?? '')
			? ['create', 'read', 'update', 'delete', 'publish'].some((a) => p.action === explorer(a))
			: p.subject === SITE && (p.action === explorer('read') || p.action === explorer('update'))
	const content = (strapi.service('admin::content-type').getPermissionsWithNestedFields(actions) as Permission[])
		.filter(wanted)
		.map((p) => {
			const fields = p.properties?.fields
			const own = p.subject === SITE && p.action === explorer('update') && fields
			return {
				action: p.action,
				actionParameters: {},
				subject: p.subject,
				properties: {
					...(fields ? { fields: own ? fields.filter((f) => !APP_SET.includes(f)) : fields } : {}),
					...(localized(p.subject) ? { locales: LOCALES } : {}),
				},
				conditions: [CONDITION],
			}
		})
	const media = UPLOAD_ACTIONS.map((action) => ({
		action,
		actionParameters: {},
		subject: null,
		properties: {},
		conditions: [CONDITION],
	}))
	return [...content, ...media]
}

// One provisioning at a time in this process: two retries of the same job must not both find the
// site missing and make it twice (the CMS runs as one process; docs/authoring.md).
let queue: Promise<unknown> = Promise.resolve()
const serially = <T>(work: () => Promise<T>): Promise<T> => {
	const run = queue.then(work, work)
	queue = run.catch(() => {})
	return run
}

/** The site's authors' role, active or suspended, or null. */
async function findRole(strapi: Core.Strapi, key: string): Promise<Role | null> {
	const roles: Role[] = await strapi.db
		.query('admin::role')
		.findMany({ where: { name: { $in: [roleName(key), suspendedName(key)] } } })
	return roles.find((r) => r.name === roleName(key)) ?? roles[0] ?? null
}

/** Makes the role if missing, names it for the status and gives it its permissions (none when not active). */
async function ensureRole(strapi: Core.Strapi, key: string, status: Status = 'active') {
	const roles = strapi.service('admin::role')
	const active = status === 'active'
	const name = active ? roleName(key) : suspendedName(key)
	let role = await findRole(strapi, key)
	const created = !role
	if (!role)
		role = (await roles.create({
			name,
			description: `Write, publish and archive ${key}'s courses, pages and posts; keep its categories and tags; edit its site document.`,
		})) as Role
	else if (role.name !== name) role = (await roles.update({ id: role.id }, { name })) as Role
	await roles.assignPermissions(role.id, active ? authorPermissions(strapi) : [])
	return { role, created }
}

/** The site's own folder at the root of the media library (its name is the site's key). */
async function ensureFolder(strapi: Core.Strapi, key: string) {
	const existing = await strapi.db.query(FOLDER).findOne({ where: { name: key, parent: null } })
	if (existing) return { folder: existing, created: false }
	const folder = await strapi.plugin('upload').service('folder').create({ name: key, parent: null })
	return { folder, created: true }
}

/**
 * The site document (en), made with the tenant's name when missing; an author's edits are kept. Its
 * time zone is the tenant's (the app's setting, decision 0095), set whenever it differs: due dates
 * are typed and shown in it.
 */
async function ensureSiteDocument(strapi: Core.Strapi, key: string, name: string | undefined, timeZone?: string) {
	const docs = strapi.documents(SITE)
	const [existing] = (await docs.findMany({
		filters: { key },
		locale: 'en',
		fields: ['timeZone'],
	})) as { timeZone?: string | null }[]
	if (!existing) {
		await docs.create({
			locale: 'en',
			data: { key, name: String(name || key).slice(0, 120), ...(timeZone && { timeZone }) },
		})
		return { created: true }
	}
	// Every locale's row at once (the field is not localized); the content API does not serve it, so
	// nothing is revalidated.
	if (timeZone && existing.timeZone !== timeZone)
		await strapi.db.query(SITE).updateMany({ where: { key }, data: { timeZone } })
	return { created: false }
}

/** The site, its role and its folder as the app's tenant is: `status` one of STATUSES. */
function provisionSite(
	strapi: Core.Strapi,
	{ key, name, status = 'active', timeZone }: { key: string; name?: string; status?: Status; timeZone?: string },
) {
	return serially(async () => {
		const site = await ensureSiteDocument(strapi, key, name, timeZone)
		const folder = await ensureFolder(strapi, key)
		const role = await ensureRole(strapi, key, status)
		return {
			site: key,
			status,
			created: { site: site.created, role: role.created, folder: folder.created },
		}
	})
}

/**
 * An invitation to author the site: a new admin account (no password yet) with the site's role and
 * its registration link, or the role added to an existing account (no link: they sign in as
 * before). A pending account's link is given again only when it was invited to this site alone:
 * another site's invitation is never handed to this one. Null when the site is not open for authoring.
 */
function inviteAuthor(strapi: Core.Strapi, key: string, email: string) {
	return serially(async () => {
		const role: Role | null = await strapi.db.query('admin::role').findOne({ where: { name: roleName(key) } })
		if (!role) return null
		const users = strapi.service('admin::user')
		const withRoles = (where: object) => strapi.db.query('admin::user').findOne({ where, populate: ['roles'] })
		let user: User | null = await withRoles({ email })
		let state = 'added'
		if (!user) {
			const made: { id: number } = await users.create({
				email,
				firstname: email.split('@')[0],
				isActive: false,
				roles: [role.id],
			})
			const found: User = await withRoles({ id: made.id })
			user = found
			state = 'invited'
		} else if (!user.roles.some((r) => r.id === role.id)) {
			await users.updateById(user.id, { roles: [...user.roles.map((r) => r.id), role.id] })
		} else state = 'already'
		const onlyHere = (user.roles ?? []).every((r) => r.id === role.id)
		const pending = !user.isActive && user.registrationToken
		const registrationUrl =
			pending && onlyHere
				? `${strapi.config.get('admin.absoluteUrl')}/auth/register?registrationToken=${encodeURIComponent(pending)}`
				: null
		return { email, state: pending && state === 'already' ? 'invited' : state, registrationUrl }
	})
}

/**
 * Every active authors' role given the permissions of this version (at boot): what a new version
 * lets authors do (their site's categories and tags, decision 0098) reaches the roles made before it.
 */
async function refreshRoles(strapi: Core.Strapi) {
	const wanted = authorPermissions(strapi)
	const pairs = (list: Permission[]) => new Set(list.map((p) => `${p.action} ${p.subject}`))
	const roles: Role[] = await strapi.db.query('admin::role').findMany({ where: { name: { $startsWith: 'Authors: ' } } })
	for (const role of roles) {
		const held = pairs(await strapi.db.query('admin::permission').findMany({ where: { role: role.id } }))
		if ([...pairs(wanted)].some((pair) => !held.has(pair)))
			await strapi.service('admin::role').assignPermissions(role.id, wanted)
	}
}

const provisioning = ({ strapi }: { strapi: Core.Strapi }) => ({
	refreshRoles: () => serially(() => refreshRoles(strapi)),
	provisionSite: (tenant: Parameters<typeof provisionSite>[1]) => provisionSite(strapi, tenant),
	inviteAuthor: (key: string, email: string) => inviteAuthor(strapi, key, email),
	ensureRole: (key: string, status?: Status) => ensureRole(strapi, key, status),
})

export type Provisioning = ReturnType<typeof provisioning>
export default provisioning

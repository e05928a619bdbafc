/**
 * Tenants in the CMS. An author's sites are named by their roles: a role called
 * `Authors: <site key>` (e.g. `Authors: acme`) gives the site of that key. The condition
 * "In the author's own sites" (api::authoring.tenants registers it) limits a permission to documents
 * whose `site` is one of them, and media-library files to those sites' folders. Roles without it
 * (Super Admin, Editor: the platform's editors) see everything. A suspended tenant's role is
 * `Suspended authors: <key>` (api::authoring.provisioning): it names no site and does not make its
 * holder a platform editor.
 */

// A site's key is its tenant's slug as the app allows it (app/routes/admin.tenants.tsx), or _apex.
export const SITE_KEY = /^(?:_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
export const ROLE = /^Authors: (_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
export const SUSPENDED_ROLE = /^Suspended authors: (_apex|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/
export const CONDITION = 'api::in-own-sites'
/** A tenant's status as the app sends it (PUT …/authoring): only an active one's authors write. */
export const STATUSES = ['active', 'suspended', 'archived'] as const
export type Status = (typeof STATUSES)[number]

/** An admin user as the walls read it: their roles' names. */
export type AdminUser = { roles?: { id?: number; name: string }[] | null }

export const sitesOf = (user: AdminUser | null | undefined): string[] =>
	(user?.roles ?? []).map((r) => ROLE.exec(r.name)?.[1]).filter((s): s is string => Boolean(s))

/** Roles that see every site: a role without the Authors: prefix (a suspended site's role is none). */
export const isPlatformEditor = (user: AdminUser | null | undefined) =>
	(user?.roles ?? []).some((r) => !ROLE.test(r.name) && !SUSPENDED_ROLE.test(r.name))

/**
 * A tenant's time zone as the app stores it (app/learning/due-dates.ts): an IANA name as written
 * (`Europe/Paris`, `UTC`) that Intl knows; case variants and offsets are not.
 */
export function isTimeZone(name: unknown): name is string {
	if (typeof name !== 'string' || name.length > 64) return false
	if (!/^[A-Z][A-Za-z_+-]*(\/[A-Z][A-Za-z0-9_+-]*){0,2}$/.test(name)) return false
	try {
		new Intl.DateTimeFormat('en', { timeZone: name })
		return true
	} catch {
		return false
	}
}

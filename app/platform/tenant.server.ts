import type { Database } from '#db/client.ts'
import { findTenantsByDomainOrSlug, type Tenant } from '#db/tenants.ts'
import type { TagStore } from '../content/cache-tags.server.ts'
import { describeError, log } from './log.server.ts'
import { LRUCache } from 'lru-cache'

/** Revalidated by every write to a tenants row this service makes; other processes hear it on the invalidation bus. */
export const TENANTS_TAG = 'tenants'

export type HostResolution = { kind: 'apex' } | { kind: 'tenant'; tenant: Tenant } | { kind: 'unknown' }

/** Lower-cased host name without port or trailing dot; '' when absent or malformed. */
export function normalizeHost(hostHeader: string | undefined | null) {
	if (!hostHeader) return ''
	const host = hostHeader.trim().toLowerCase().replace(/\.$/, '')
	// [v6]:port or name:port
	const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '')
	return /^[a-z0-9.\-[\]:]+$/.test(name) ? name : ''
}

/**
 * The spec's order: exact custom-domain match, then a subdomain of
 * APP_BASE_DOMAIN, then the apex or www host (the public site, no tenant);
 * anything else is unknown. Archived tenants are not served (see
 * docs/decisions/0002-tenancy.md); suspended ones are returned so the caller
 * can answer the branded 503.
 */
export async function resolveHost(db: Database, host: string, baseDomain: string): Promise<HostResolution> {
	if (!host) return { kind: 'unknown' }
	if (host === baseDomain || host === `www.${baseDomain}`) return { kind: 'apex' }
	const suffix = `.${baseDomain}`
	const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : null
	const slug = label && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? label : null
	const rows = await findTenantsByDomainOrSlug(db, host, slug)
	// A host under the base domain is always a slug's: no custom domain can take another tenant's subdomain.
	const byDomain = label === null ? rows.find((t) => t.custom_domain === host) : undefined
	const tenant = byDomain ?? rows.find((t) => slug !== null && t.slug === slug)
	if (!tenant || tenant.status === 'archived') return { kind: 'unknown' }
	return { kind: 'tenant', tenant }
}

/**
 * The origin a tenant's pages are indexed under, whichever of its hosts served them: its custom
 * domain when it has one, else its subdomain; the apex (never www) for the public platform site.
 * Scheme and port are the request origin's, which come from configuration.
 */
export function canonicalOrigin(origin: string, tenant: Tenant | null, baseDomain: string) {
	const url = new URL(origin)
	url.hostname = tenant ? (tenant.custom_domain ?? `${tenant.slug}.${baseDomain}`) : baseDomain
	return url.origin
}

/**
 * resolveHost behind a per-process cache: every request starts with the
 * host, and the answer changes only when a tenant is created, suspended,
 * archived or reconfigured, each of which revalidates TENANTS_TAG. A row
 * changed outside the service (by hand in SQL) is picked up within `ttlMs`.
 * When the database cannot answer, the last answer it gave for the host is
 * used (logged): a known host keeps being served from the page cache and the
 * static files during an outage, instead of every request waiting on it.
 */
export function createHostResolver(db: Database, baseDomain: string, tags: TagStore, ttlMs = 60_000) {
	// Arbitrary Host headers cannot grow it without bound.
	const cache = new LRUCache<string, { resolution: HostResolution; version: number; at: number }>({ max: 10_000 })
	/** The cached answer while it is current, else undefined: lets a request that needs nothing else stay synchronous. */
	function fresh(host: string): HostResolution | undefined {
		const hit = cache.get(host)
		if (hit && hit.version === tags.version(TENANTS_TAG) && Date.now() - hit.at < ttlMs) return hit.resolution
	}
	async function resolve(host: string): Promise<HostResolution> {
		const known = fresh(host)
		if (known) return known
		const version = tags.version(TENANTS_TAG)
		let resolution: HostResolution
		try {
			resolution = await resolveHost(db, host, baseDomain)
		} catch (error) {
			const lastGood = cache.get(host)
			if (!lastGood) throw error
			log.warn('tenant/last-good-host', { host, error: describeError(error) })
			return lastGood.resolution
		}
		cache.set(host, { resolution, version, at: Date.now() })
		return resolution
	}
	return Object.assign(resolve, { fresh })
}

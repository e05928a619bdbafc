import type { Database } from '#db/client.ts'
import { findTenantsByDomainOrSlug, type Tenant } from '#db/tenants.ts'
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
	const { label, slug } = hostLabel(host, baseDomain)
	const rows = await findTenantsByDomainOrSlug(db, host, slug)
	// A host under the base domain is always a slug's: no custom domain can take another tenant's subdomain.
	const byDomain = label === null ? rows.find((t) => t.custom_domain === host) : undefined
	const tenant = byDomain ?? rows.find((t) => slug !== null && t.slug === slug)
	if (!tenant || tenant.status === 'archived') return { kind: 'unknown' }
	return { kind: 'tenant', tenant }
}

/** The label of a host under the base domain, and that label when it can be a tenant's slug. */
function hostLabel(host: string, baseDomain: string) {
	const suffix = `.${baseDomain}`
	const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : null
	const slug = label && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? label : null
	return { label, slug }
}

/**
 * The content site a host's pages are read from when the host alone says it, without the
 * database: 'apex' for the apex and www, the slug for a subdomain of the base domain; null for any
 * other host (a custom domain, which only the tenants table maps).
 */
export function siteOfHost(host: string, baseDomain: string): { kind: 'apex' } | { kind: 'slug'; slug: string } | null {
	if (host === baseDomain || host === `www.${baseDomain}`) return { kind: 'apex' }
	const { slug } = hostLabel(host, baseDomain)
	return slug ? { kind: 'slug', slug } : null
}

/**
 * The tenant's custom domain once a super admin has marked it live (DNS and TLS in place, decision
 * 0062); null before. A domain typed into the tenant's form may not reach anyone yet: until it is
 * live, links and canonical URLs name the tenant's subdomain, which always does.
 */
export function liveCustomDomain(tenant: Pick<Tenant, 'custom_domain' | 'feature_flags_json'>) {
	return tenant.custom_domain && tenant.feature_flags_json?.customDomainLive === true ? tenant.custom_domain : null
}

/**
 * The origin a tenant's pages are indexed under, whichever of its hosts served them: its custom
 * domain once live, else its subdomain; the apex (never www) for the public platform site.
 * Scheme and port are the request origin's, which come from configuration.
 */
export function canonicalOrigin(origin: string, tenant: Tenant | null, baseDomain: string) {
	const url = new URL(origin)
	url.hostname = tenant ? (liveCustomDomain(tenant) ?? `${tenant.slug}.${baseDomain}`) : baseDomain
	return url.origin
}

/**
 * Where a mail to a person of the tenant links (decision 0062): the canonical host once the custom
 * domain is live; before, the tenant's host the person last signed in on (`lastHost`, their newest
 * session's), so a school reached by its own domain inside its network keeps it; else the subdomain.
 * A last host that is no longer the tenant's (its domain changed since) is not used.
 */
export function mailOrigin(origin: string, tenant: Tenant | null, baseDomain: string, lastHost: string | null) {
	const canonical = canonicalOrigin(origin, tenant, baseDomain)
	if (!tenant || liveCustomDomain(tenant) || !lastHost) return canonical
	if (lastHost !== tenant.custom_domain && lastHost !== `${tenant.slug}.${baseDomain}`) return canonical
	const url = new URL(canonical)
	url.hostname = lastHost
	return url.origin
}

/**
 * resolveHost behind a per-process cache: every request starts with the
 * host, and the answer changes only when a tenant is created, suspended,
 * archived or reconfigured, each of which revalidates TENANTS_TAG (a request
 * after that waits for the database). A row changed outside the service (by
 * hand in SQL) is picked up within `ttlMs`: after it, the last answer is
 * still given at once while one background lookup per host refreshes it
 * (stale-while-revalidate), for at most `staleMs` more. So a database that
 * stalls never holds a known host's requests (the page cache and the static
 * files keep answering), and a value older than ttlMs + staleMs is never
 * served: the request then waits for the database and, if it fails, is
 * answered as an outage (docs/decisions/0035-stalls-and-limits.md). A refresh that failed is not
 * tried again for REFRESH_RETRY_MS: a database known to be down refuses at once (db/liveness.ts),
 * and a refresh on every request of a busy host would put a failed query and a log line on the path
 * of each cached page (issue 46).
 */
const REFRESH_RETRY_MS = 1_000

export function createHostResolver(
	db: Database,
	baseDomain: string,
	/** The content room's tag store (its `tenants` version moves on each tenant write). */
	tags: { version(tag: string): number },
	ttlMs = 60_000,
	staleMs = 10 * 60_000,
) {
	// Arbitrary Host headers cannot grow it without bound.
	const cache = new LRUCache<string, { resolution: HostResolution; version: number; at: number; retryAt?: number }>({
		max: 10_000,
	})
	// One lookup per host at a time, whether a request waits for it or it refreshes in the background;
	// one started before a tenant write is not the answer to a request after it (the key has the version).
	const lookups = new Map<string, Promise<HostResolution>>()
	const flight = (host: string) => `${tags.version(TENANTS_TAG)}\u0000${host}`
	function lookup(host: string) {
		const key = flight(host)
		let pending = lookups.get(key)
		if (!pending) {
			const version = tags.version(TENANTS_TAG)
			pending = resolveHost(db, host, baseDomain)
				.then((resolution) => {
					cache.set(host, { resolution, version, at: Date.now() })
					return resolution
				})
				.finally(() => lookups.delete(key))
			lookups.set(key, pending)
		}
		return pending
	}
	/** The last answer while it may be served (refreshed in the background once past ttlMs), else undefined. */
	function fresh(host: string): HostResolution | undefined {
		const hit = cache.get(host)
		if (!hit || hit.version !== tags.version(TENANTS_TAG)) return
		const age = Date.now() - hit.at
		if (age >= ttlMs + staleMs) return
		if (age >= ttlMs && !lookups.has(flight(host)) && Date.now() >= (hit.retryAt ?? 0))
			lookup(host).catch((error) => {
				hit.retryAt = Date.now() + REFRESH_RETRY_MS
				log.warn('tenant/host-refresh-failed', { host, error: describeError(error) })
			})
		return hit.resolution
	}
	async function resolve(host: string): Promise<HostResolution> {
		const known = fresh(host)
		if (known) return known
		try {
			return await lookup(host)
		} catch (error) {
			// A tenant write moved the tag, and the database is gone before the new answer: the last one, within the bound.
			const lastGood = cache.get(host)
			if (!lastGood || Date.now() - lastGood.at >= ttlMs + staleMs) throw error
			log.warn('tenant/last-good-host', { host, error: describeError(error) })
			return lastGood.resolution
		}
	}
	return Object.assign(resolve, { fresh })
}

/** The tenant's magicLink flag; enabled when absent (spec). */
export function magicLinkEnabled(tenant: Tenant) {
	return tenant.feature_flags_json?.magicLink !== false
}

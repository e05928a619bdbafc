import { createContext, type RouterContextProvider } from 'react-router'
import type { Database } from '#db/client.ts'
import type { Tenant } from '#db/tenants.ts'
import type { Locale } from '#db/schema/values.ts'
import type { TagStore } from './content/cache-tags.server.ts'
import type { ContentClient } from './content/content-cache.server.ts'
import type { Env } from './platform/env.server.ts'
import type { RateLimitDriver } from './platform/rate-limit.server.ts'

/**
 * Everything a loader or action knows about the request, resolved once at the
 * server entry (server/handle.ts). Nothing below it reads the Host header again.
 */
export interface RequestContext {
	env: Env
	db: Database
	/** Content reads, cached by tag; `cms.uncached` for reads that must be fresh. */
	cms: ContentClient
	/** null on the apex (public platform) host */
	tenant: Tenant | null
	/** The content-service site for this host: a SiteKey of cms.server.ts (written as its type, string,
	 * so this module imports nothing that imports it back). */
	site: string
	host: string
	/** scheme://host[:port] as the browser sees it */
	origin: string
	/**
	 * The page as the address bar shows it: the normal-form path with its locale prefix and the
	 * query, without React Router's transport (`.data`, `_routes`), which loaders see in the request.
	 */
	page: { path: string; search: string }
	/** Negotiated for visitors; the user's own locale once signed in. */
	locale: Locale
	/** The client address: the socket's peer, or the one the outermost of TRUSTED_PROXY_HOPS proxies saw (server/proxy.ts). */
	clientIp: string
	rateLimit: RateLimitDriver
	/** Cache-tag versions: revalidated by the webhook and by this service's own writes. */
	tags: TagStore
	/** The Redis client when REDIS_URL is set (health probe; rate limits and invalidation use it too). */
	redis: { ping(): Promise<unknown> } | null
	/**
	 * Runs `task` once the answer has been sent: best-effort work nothing depends on (a session's
	 * renewal). Work that must happen (mail, housekeeping) is a job written in the action's
	 * transaction instead (app/platform/jobs.server.ts, decision 0033).
	 */
	afterResponse(task: () => Promise<unknown>): void
	/**
	 * Work of this request a drain must wait for before it closes the pool, however the request ends:
	 * a hand-in's reading and the removal of its files. React Router answers an aborted request (the
	 * drain cutting it) at once, without waiting for its action, so waiting on the answer is not enough.
	 */
	holdDrain(work: Promise<unknown>): void
	/**
	 * Set when a CMS preview link is read (app/learning/preview.server.ts): the answer is kept out of
	 * caches, and the CMS's admin alone may frame the page it opens (`page`, when it answers 200) or
	 * the refusal of an expired link (`refusal`), which shows nothing of the course (root.tsx, decision 0100).
	 */
	framedByCms?: 'page' | 'refusal'
	/** Set when a loader or action failed because the database was out of reach (the server entry answers 503). */
	databaseUnavailable?: boolean
}

export const requestContext = createContext<RequestContext>()

export function getRequestContext(context: Readonly<RouterContextProvider>) {
	return context.get(requestContext)
}

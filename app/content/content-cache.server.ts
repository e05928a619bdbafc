import type { TagStore } from './cache-tags.server.ts'
import type { CmsClient, SiteKey } from './cms.server.ts'
import { describeError, log } from '../platform/log.server.ts'
import { LRUCache } from 'lru-cache'

interface Slot {
	value: unknown
	tags: string[]
	/** The tags' versions when the read that filled this slot started. */
	versions: number[]
	/** When a refresh last failed: the stale value is then served without asking again for a while. */
	failedAt?: number
}

/** What a read hands lru-cache's fetchMethod: the tags to file the value under and how to read it. */
interface Read {
	tags: string[]
	fetcher: () => Promise<unknown>
}

// While the content service is failing, each key asks it again at most this often.
const RETRY_FAILED_AFTER_MS = 5_000

export interface ContentCacheOptions {
	/** After this age a value is served stale while one background refresh runs. */
	ttlMs?: number
	maxEntries?: number
	now?: () => number
}

/** The slots: lru-cache's fetch() serving stale, sharing a read in flight and keeping the last good value. */
function createSlots(tags: TagStore, ttlMs: number, maxEntries: number, now: () => number) {
	return new LRUCache<string, Slot, Read>({
		max: maxEntries,
		ttl: ttlMs,
		// Past its ttl a value is stale, not gone: it is served while the refresh runs, and kept as the last good value.
		allowStale: true,
		noDeleteOnStaleGet: true,
		// The clock is read at every check, not once a millisecond: a clock that jumps (the tests') is seen at once.
		ttlResolution: 0,
		perf: { now },
		// A read evicted while it runs still answers the requests waiting for it.
		ignoreFetchAbort: true,
		fetchMethod: (key, last, { options: set, context }) => {
			const versions = context.tags.map((t) => tags.version(t))
			return context.fetcher().then(
				(value) => ({ value, tags: context.tags, versions }),
				(error: unknown) => {
					if (!last) throw error
					// The last good value stays, marked, and counts as fresh until the service is asked again.
					set.ttl = RETRY_FAILED_AFTER_MS
					log.warn(set.allowStale ? 'cms/refresh-failed' : 'cms/stale-served', { key, error: describeError(error) })
					return { ...last, failedAt: now() }
				},
			)
		},
	})
}

/** A read through the slots that honours the tags: a revalidated value is a miss, unless the service failed a moment ago. */
function tagAwareRead(slots: LRUCache<string, Slot, Read>, tags: TagStore, now: () => number) {
	const invalidated = (slot: Slot) => slot.tags.some((t, i) => tags.version(t) !== slot.versions[i])
	const failingRecently = (slot: Slot) => slot.failedAt !== undefined && now() - slot.failedAt < RETRY_FAILED_AFTER_MS

	return async function read<T>(key: string, tagList: string[], fetcher: () => Promise<T>): Promise<T> {
		// The hit of most reads, without the promise fetch() makes.
		const fresh = slots.get(key, { allowStale: false })
		if (fresh && (!invalidated(fresh) || failingRecently(fresh))) return fresh.value as T
		const context: Read = { tags: tagList, fetcher }
		const known = slots.peek(key)
		// A revalidated value is a miss (the read waits for new content), unless the service failed a moment ago.
		const refresh = known !== undefined && invalidated(known) && !failingRecently(known)
		let slot = await slots.fetch(key, { context, forceRefresh: refresh, allowStale: !refresh })
		// A flight that started before a revalidation may carry old content: the read waits for one that starts now.
		if (slot && invalidated(slot) && !failingRecently(slot))
			slot = await slots.fetch(key, { context, forceRefresh: true, allowStale: false })
		if (!slot) throw new Error(`content cache: no value for ${key}`)
		return slot.value as T
	}
}

type TaggedRead = ReturnType<typeof tagAwareRead>

const k = (site: SiteKey, locale: string, ...parts: string[]) => [site, locale, ...parts].join('|')
const PAGES = 'cms:page-hierarchy'

/** The client over `read`; `onRead` hears the tags of every read (the page cache files a page under them). */
function cachedClient(cms: CmsClient, read: TaggedRead, onRead?: (tags: string[]) => void) {
	const get = <T>(key: string, tagList: string[], fetcher: () => Promise<T>) => {
		onRead?.(tagList)
		return read(key, tagList, fetcher)
	}
	return {
		uncached: cms,
		site: (site: SiteKey, locale: string) =>
			get(k(site, locale, 'site'), [`site:${site}`], () => cms.site(site, locale)),
		courses: (site: SiteKey, locale: string) =>
			get(k(site, locale, 'courses'), ['course:*'], () => cms.courses(site, locale)),
		course: (site: SiteKey, slug: string, locale: string) =>
			get(k(site, locale, 'course', slug), [`course:${slug}`], () => cms.course(site, slug, locale)),
		entry: (site: SiteKey, courseSlug: string, entrySlug: string, locale: string) =>
			get(
				k(site, locale, 'entry', courseSlug, entrySlug),
				[`course:${courseSlug}`, `entry:${courseSlug}:${entrySlug}`],
				() => cms.entry(site, courseSlug, entrySlug, locale),
			),
		pages: (site: SiteKey, locale: string) => get(k(site, locale, 'pages'), [PAGES], () => cms.pages(site, locale)),
		page: (site: SiteKey, slug: string, locale: string) =>
			get(k(site, locale, 'page', slug), [PAGES], () => cms.page(site, slug, locale)),
		pageHierarchy: (site: SiteKey, locale: string) =>
			get(k(site, locale, 'hierarchy'), [PAGES], () => cms.pageHierarchy(site, locale)),
		blogPosts: (site: SiteKey, locale: string) =>
			get(k(site, locale, 'blog'), [PAGES], () => cms.blogPosts(site, locale)),
		blogPost: (site: SiteKey, slug: string, locale: string) =>
			get(k(site, locale, 'blog', slug), [PAGES], () => cms.blogPost(site, slug, locale)),
		asset: cms.asset,
	}
}

/**
 * The content client behind a tagged cache, per site and locale:
 * - fresh values are served from memory;
 * - after ttlMs a value is served stale while one background refresh runs;
 * - a revalidated tag makes its values misses (the next read waits for new content);
 * - concurrent misses of one key share one upstream request (single flight);
 * - when the content service fails, the last good value is served and the failure logged.
 * `uncached` is the raw client, for reads that must be fresh (quiz grading).
 *
 * lru-cache's fetch() does the serving stale, the single flight and the keeping of the last good
 * value (decision 0066); this module adds the tags and the pause after a failure.
 */
export function createContentCache(cms: CmsClient, tags: TagStore, options: ContentCacheOptions = {}) {
	const now = options.now ?? Date.now
	const slots = createSlots(tags, options.ttlMs ?? 60_000, options.maxEntries ?? 5_000, now)
	const read = tagAwareRead(slots, tags, now)
	const client = (onRead?: (tags: string[]) => void) => cachedClient(cms, read, onRead)
	return Object.assign(client(), { withReadListener: client })
}

export type ContentClient = Omit<ReturnType<typeof createContentCache>, 'withReadListener'>

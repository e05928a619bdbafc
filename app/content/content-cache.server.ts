import type { TagStore } from './cache-tags.server.ts'
import type { CmsClient, SiteKey } from './cms.server.ts'
import { describeError, log } from '../platform/log.server.ts'
import { LRUCache } from 'lru-cache'
import { singleFlight } from '../platform/memo.ts'

interface Slot {
	value: unknown
	storedAt: number
	tags: string[]
	/** The tags' versions when the read that filled this slot started. */
	versions: number[]
	/** When a refresh last failed: the stale value is then served without asking again for a while. */
	failedAt?: number
}

// While the content service is failing, each key asks it again at most this often.
const RETRY_FAILED_AFTER_MS = 5_000

export interface ContentCacheOptions {
	/** After this age a value is served stale while one background refresh runs. */
	ttlMs?: number
	maxEntries?: number
	now?: () => number
}

/**
 * The content client behind a tagged cache, per site and locale:
 * - fresh values are served from memory;
 * - after ttlMs a value is served stale while one background refresh runs;
 * - a revalidated tag makes its values misses (the next read waits for new content);
 * - concurrent misses of one key share one upstream request (single flight);
 * - when the content service fails, the last good value is served and the failure logged.
 * `uncached` is the raw client, for reads that must be fresh (quiz grading).
 */
export function createContentCache(cms: CmsClient, tags: TagStore, options: ContentCacheOptions = {}) {
	const ttlMs = options.ttlMs ?? 60_000
	const maxEntries = options.maxEntries ?? 5_000
	const now = options.now ?? Date.now
	const slots = new LRUCache<string, Slot>({ max: maxEntries })
	const flights = singleFlight<unknown>()

	function load<T>(key: string, tagList: string[], fetcher: () => Promise<T>): Promise<T> {
		const versions = tagList.map((t) => tags.version(t))
		// An invalidation during a fetch starts a new flight: the old one may carry old content.
		const flight = `${key}#${versions.join('.')}`
		return flights(flight, () =>
			fetcher().then((value) => {
				slots.set(key, { value, storedAt: now(), tags: tagList, versions })
				return value
			}),
		) as Promise<T>
	}

	async function read<T>(key: string, tagList: string[], fetcher: () => Promise<T>): Promise<T> {
		const slot = slots.get(key)
		const invalidated = slot ? slot.tags.some((t, i) => tags.version(t) !== slot.versions[i]) : true
		const failingRecently = slot?.failedAt !== undefined && now() - slot.failedAt < RETRY_FAILED_AFTER_MS
		if (slot && (!invalidated || failingRecently)) {
			if (now() - slot.storedAt >= ttlMs && !failingRecently) {
				load(key, tagList, fetcher).catch((error) => {
					slot.failedAt = now()
					log.warn('cms/refresh-failed', { key, error: describeError(error) })
				})
			}
			return slot.value as T
		}
		try {
			return await load(key, tagList, fetcher)
		} catch (error) {
			if (!slot) throw error
			slot.failedAt = now()
			log.warn('cms/stale-served', { key, error: describeError(error) })
			return slot.value as T
		}
	}

	const k = (site: SiteKey, locale: string, ...parts: string[]) => [site, locale, ...parts].join('|')
	const PAGES = 'cms:page-hierarchy'

	/** The client; `onRead` hears the tags of every read (the page cache files a page under them). */
	function client(onRead?: (tags: string[]) => void) {
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

	return Object.assign(client(), { withReadListener: client })
}

export type ContentClient = Omit<ReturnType<typeof createContentCache>, 'withReadListener'>

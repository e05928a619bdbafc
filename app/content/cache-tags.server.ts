import { randomUUID } from 'node:crypto'
import { log } from '../platform/log.server.ts'

/**
 * Cache tags and their versions. Anything cached under a tag (content reads,
 * per-user projections) remembers the tag's version it was built at and is
 * stale once the version moves. Revalidation comes from the content
 * webhook and from this service's own writes (progress:<userId>,
 * course:<slug>); listeners fan it out to other processes.
 */
export type TagOrigin = 'local' | 'remote'

/** The key of a process-wide cache entry of this app and site (the tag store's scope first). */
export const scopedKey = (ctx: { tags: { scope: string }; site: string }, ...parts: Array<string | number>) =>
	[ctx.tags.scope, ctx.site, ...parts].join('|')

export function createTagStore() {
	const versions = new Map<string, number>()
	const listeners = new Set<(tags: string[], origin: TagOrigin) => void>()
	return {
		/**
		 * This app's part of the caches kept per process (generated site images, search indexes, image
		 * sizes and variants): their keys start with it, so two apps in one process (test stacks sharing a
		 * worker) never answer from each other's entries.
		 */
		scope: randomUUID(),
		/** `remote`: the revalidation came from another process (it is not sent on again). */
		revalidate(tags: string[], origin: TagOrigin = 'local') {
			// `course:x` also moves `course:*`, the tag of lists that contain any course.
			const moved = new Set(
				tags.flatMap((tag) => (tag.includes(':') ? [tag, `${tag.slice(0, tag.indexOf(':'))}:*`] : [tag])),
			)
			for (const tag of moved) versions.set(tag, (versions.get(tag) ?? 0) + 1)
			log.info('cache/revalidated', { tags, origin })
			for (const listener of listeners) listener(tags, origin)
		},
		version: (tag: string) => versions.get(tag) ?? 0,
		subscribe(listener: (tags: string[], origin: TagOrigin) => void) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
	}
}

export type TagStore = ReturnType<typeof createTagStore>

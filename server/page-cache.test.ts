import { describe, expect, it } from 'vitest'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import { createPageCache } from './page-cache.ts'

const page = (text: string) => new Response(text, { headers: { 'content-type': 'text/html; charset=utf-8' } })

describe('createPageCache bounds', () => {
	it('keeps at most maxEntries pages, dropping the least recently served', async () => {
		const cache = createPageCache(createTagStore(), { maxEntries: 2 })
		await cache.store('a', page('a'), [], [])
		await cache.store('b', page('b'), [], [])
		expect(cache.lookup('a')).not.toBeNull()
		await cache.store('c', page('c'), [], [])
		expect(cache.size()).toBe(2)
		expect(cache.lookup('b')).toBeNull()
		expect(cache.lookup('a')).not.toBeNull()
		expect(cache.lookup('c')).not.toBeNull()
	})

	it('keeps the bytes of every variant under maxTotalBytes', async () => {
		const cache = createPageCache(createTagStore(), { maxTotalBytes: 3_000 })
		// Random text hardly compresses, so each entry costs about three times its length.
		const noise = () => Array.from({ length: 400 }, () => Math.random().toString(36)[2]).join('')
		for (const key of ['a', 'b', 'c', 'd']) await cache.store(key, page(noise()), [], [])
		expect(cache.bytes()).toBeLessThanOrEqual(3_000)
		expect(cache.size()).toBeLessThan(4)
		expect(cache.lookup('d')).not.toBeNull()
	})

	it('forgets a page once a tag it read is revalidated', async () => {
		const tags = createTagStore()
		const cache = createPageCache(tags)
		await cache.store('a', page('a'), ['course:x'], [tags.version('course:x')])
		expect(cache.lookup('a')).not.toBeNull()
		tags.revalidate(['course:x'])
		expect(cache.lookup('a')).toBeNull()
	})
})

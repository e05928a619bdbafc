import { describe, expect, it } from 'vitest'
import { createTagStore } from '#app/content/cache-tags.server.ts'
import { receiver } from './invalidation.ts'

describe('receiver', () => {
	const message = (id: string, from: string, tags: unknown) => JSON.stringify({ id, from, tags })

	it('applies a message once, however many transports bring it, and never its own', () => {
		const tags = createTagStore()
		const receive = receiver(tags, 'me')
		receive(message('1', 'other', ['course:a']))
		receive(message('1', 'other', ['course:a']))
		receive(message('2', 'me', ['course:a']))
		expect(tags.version('course:a')).toBe(1)
	})

	it('ignores malformed messages and tags that are not strings', () => {
		const tags = createTagStore()
		const receive = receiver(tags, 'me')
		for (const raw of ['', '{', 'null', message('3', 'other', 'course:a'), message('4', 'other', [{}, 7])])
			expect(() => receive(raw)).not.toThrow()
		receive(message('5', 'other', [42, 'course:b']))
		expect(tags.version('course:a')).toBe(0)
		expect(tags.version('course:b')).toBe(1)
	})
})

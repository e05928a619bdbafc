import { describe, expect, it } from 'vitest'
import { entryLocks, type FlatEntry } from './learning.server.ts'

const entry = (slug: string, moduleSlug: string, index: number): FlatEntry => ({
	slug,
	type: 'lesson',
	title: slug,
	estimatedMinutes: null,
	moduleSlug,
	moduleTitle: moduleSlug,
	index,
})
// Two modules of two entries each.
const entries = [entry('a1', 'a', 0), entry('a2', 'a', 1), entry('b1', 'b', 2), entry('b2', 'b', 3)]
const locks = (done: string[], sequential = false) => Object.fromEntries(entryLocks(entries, new Set(done), sequential))

describe('entryLocks', () => {
	it('opens the first entry of every module and locks the rest until the earlier ones are complete', () => {
		expect(locks([])).toEqual({
			a1: null,
			a2: 'complete_previous_in_module',
			b1: null,
			b2: 'complete_previous_in_module',
		})
		expect(locks(['a1', 'b1'])).toEqual({ a1: null, a2: null, b1: null, b2: null })
	})

	it('with the sequential flag, locks every entry behind any earlier incomplete one', () => {
		expect(locks([], true)).toEqual({
			a1: null,
			a2: 'complete_previous_in_module',
			b1: 'complete_previous_in_course',
			b2: 'complete_previous_in_module',
		})
		expect(locks(['a1'], true)).toMatchObject({ a2: null, b1: 'complete_previous_in_course' })
		expect(locks(['a1', 'a2'], true)).toMatchObject({ b1: null, b2: 'complete_previous_in_module' })
	})

	it('ignores completions of entries the course does not have', () => {
		expect(locks(['zz', 'a1/../a2', ''])).toEqual(locks([]))
	})
})

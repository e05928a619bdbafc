import { describe, expect, it } from 'vitest'
import { keysetPage } from './admin.ts'

// Users newest first are u9 … u1; a page holds 3 here.
const ids = (...n: number[]) => n.map((i) => ({ id: `u${i}` }))

describe('keysetPage', () => {
	it('on the first page: next when there are more, no previous', () => {
		expect(keysetPage(ids(9, 8, 7, 6), {}, 3)).toEqual({
			rows: ids(9, 8, 7),
			previous: null,
			next: 'u7',
			firstPage: true,
		})
		expect(keysetPage(ids(9, 8), {}, 3)).toMatchObject({ rows: ids(9, 8), previous: null, next: null })
	})

	it('after a cursor: previous always, next only when there are more', () => {
		expect(keysetPage(ids(6, 5, 4, 3), { after: 'u7' }, 3)).toEqual({
			rows: ids(6, 5, 4),
			previous: 'u6',
			next: 'u4',
			firstPage: false,
		})
		expect(keysetPage(ids(3, 2, 1), { after: 'u4' }, 3)).toMatchObject({ previous: 'u3', next: null })
	})

	it('before a cursor: read oldest first, shown newest first; previous only when there are more', () => {
		// Before u6, read upwards: u7, u8, u9, u10 (one more than a page).
		expect(keysetPage(ids(7, 8, 9, 10), { before: 'u6' }, 3)).toEqual({
			rows: ids(9, 8, 7),
			previous: 'u9',
			next: 'u7',
			firstPage: false,
		})
		// Back at the newest: no previous page.
		expect(keysetPage(ids(7, 8, 9), { before: 'u6' }, 3)).toMatchObject({
			rows: ids(9, 8, 7),
			previous: null,
			next: 'u7',
		})
	})

	it('an empty page past either end links nowhere', () => {
		expect(keysetPage([], { after: 'u1' }, 3)).toMatchObject({ rows: [], previous: null, next: null })
		expect(keysetPage([], { before: 'u9' }, 3)).toMatchObject({ rows: [], previous: null, next: null })
	})

	it('takes `after` when both are given, as the list does', () => {
		expect(keysetPage(ids(6, 5), { after: 'u7', before: 'u1' }, 3)).toMatchObject({ rows: ids(6, 5), previous: 'u6' })
	})
})

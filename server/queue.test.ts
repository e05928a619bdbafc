import { describe, expect, it } from 'vitest'
import { backoffMs } from './queue.ts'

describe('backoffMs (the SQLite poller; pg-boss computes the same in SQL)', () => {
	it('doubles per attempt from the base delay, with up to as much again at random', () => {
		expect(backoffMs(1, 15, 0)).toBe(15_000)
		expect(backoffMs(1, 15, 1)).toBe(30_000)
		expect(backoffMs(2, 15, 0)).toBe(30_000)
		expect(backoffMs(4, 1, 0.5)).toBe(12_000)
	})

	it('stops doubling after 16 attempts', () => {
		expect(backoffMs(40, 1, 0)).toBe(backoffMs(17, 1, 0))
	})
})

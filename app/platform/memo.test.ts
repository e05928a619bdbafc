import { describe, expect, it } from 'vitest'
import { singleFlight } from './memo.ts'

describe('singleFlight', () => {
	it('gives concurrent calls for one key one making, and makes again once it settled', async () => {
		const flight = singleFlight<number>()
		let made = 0
		const make = () => new Promise<number>((resolve) => setTimeout(() => resolve(++made), 5))
		expect(await Promise.all([flight('a', make), flight('a', make), flight('b', make)])).toEqual([1, 1, 2])
		expect(await flight('a', make)).toBe(3)
	})

	it('lets a failed making go, so the next call tries again', async () => {
		const flight = singleFlight<string>()
		await expect(flight('k', () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down')
		expect(await flight('k', async () => 'fresh')).toBe('fresh')
	})
})

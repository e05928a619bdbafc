import { describe, expect, it } from 'vitest'
import { formatBytes, formatter } from './format.ts'

describe('formatBytes', () => {
	it('uses the largest unit that keeps the figure at 1 or more, in the locale’s words', () => {
		expect(formatBytes(13, 'en')).toBe('13 bytes')
		expect(formatBytes(1, 'en')).toBe('1 byte')
		expect(formatBytes(820_400, 'en')).toBe('820.4 kB')
		expect(formatBytes(10_000_000, 'en')).toBe('10 MB')
		expect(formatBytes(2_500_000, 'de')).toBe('2,5 MB')
	})
})

describe('formatter', () => {
	it('makes a formatter once per key and keeps the 256 most recently used', () => {
		let made = 0
		const make = () => (made++, new Intl.NumberFormat('en'))
		const first = formatter('test|kept', make)
		expect(formatter('test|kept', make)).toBe(first)
		expect(made).toBe(1)
		// Full (255 other keys), used again, then one more key: the least recently used goes, not the oldest.
		for (let i = 0; i < 255; i++) formatter(`test|other-${i}`, make)
		expect(formatter('test|kept', make)).toBe(first)
		formatter('test|one-more', make)
		expect(formatter('test|kept', make)).toBe(first)
		for (let i = 0; i < 256; i++) formatter(`test|more-${i}`, make)
		const before = made
		expect(formatter('test|kept', make)).not.toBe(first)
		expect(made).toBe(before + 1)
	})
})

import { describe, expect, it } from 'vitest'
import { formatBytes } from './format.ts'

describe('formatBytes', () => {
	it('uses the largest unit that keeps the figure at 1 or more, in the locale’s words', () => {
		expect(formatBytes(13, 'en')).toBe('13 bytes')
		expect(formatBytes(1, 'en')).toBe('1 byte')
		expect(formatBytes(820_400, 'en')).toBe('820.4 kB')
		expect(formatBytes(10_000_000, 'en')).toBe('10 MB')
		expect(formatBytes(2_500_000, 'de')).toBe('2,5 MB')
	})
})

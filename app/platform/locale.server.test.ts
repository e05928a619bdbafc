import { describe, expect, it } from 'vitest'
import { localeCookie, negotiateLocale } from './locale.server.ts'

describe('negotiateLocale', () => {
	it('takes a supported cookie before the header', () => {
		expect(negotiateLocale('fr', 'de')).toBe('de')
		expect(negotiateLocale('fr', 'xx')).toBe('fr')
	})

	it('ranks by q-value, then by order, and matches a region to its language', () => {
		expect(negotiateLocale('de;q=0.5, es;q=0.9')).toBe('es')
		expect(negotiateLocale('pt-BR, en;q=0.8')).toBe('pt')
		expect(negotiateLocale('zh-Hant-TW;q=0.8, ZH;q=0.8, fr;q=0.7')).toBe('zh')
		expect(negotiateLocale('xx, de')).toBe('de')
	})

	it('skips refused languages and falls back to English', () => {
		expect(negotiateLocale('fr;q=0, de;q=0')).toBe('en')
		expect(negotiateLocale(undefined)).toBe('en')
		expect(negotiateLocale('')).toBe('en')
		expect(negotiateLocale('*')).toBe('en')
	})

	it('answers hostile headers with a supported locale', () => {
		for (const header of [';;;', 'q=1', 'fr;q=abc', 'de;q=-1', ','.repeat(10_000), '__proto__', 'fr;q=1e309'])
			expect(['en', 'es', 'fr', 'de', 'pt', 'zh']).toContain(negotiateLocale(header))
	})
})

describe('localeCookie', () => {
	it('is remembered for a year, on every path, out of scripts, Secure over https', () => {
		const attributes = (cookie: string) => cookie.split('; ').sort()
		expect(attributes(localeCookie('fr', false))).toEqual(
			['HttpOnly', 'Max-Age=31536000', 'Path=/', 'SameSite=Lax', 'lms_locale=fr'].sort(),
		)
		expect(attributes(localeCookie('zh', true))).toContain('Secure')
	})
})

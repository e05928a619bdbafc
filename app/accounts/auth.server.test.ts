import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REDIRECT_CORPUS } from '#tests/hostile/corpus.ts'
import { safeCallbackUrl } from './auth.server.ts'

const PAGE = 'http://acme.test/learn/sign-in'

/** What the browser does with a Location header on PAGE: the origin it goes to. */
const lands = (location: string) => new URL(location, PAGE).origin

describe('safeCallbackUrl', () => {
	it('keeps paths of this origin', () => {
		expect(safeCallbackUrl('/learn/course/x?a=1#b')).toBe('/learn/course/x?a=1#b')
		expect(safeCallbackUrl('/es/learn')).toBe('/es/learn')
	})
	it('refuses everything that a browser would take elsewhere, or keeps it as a one-slash path here', () => {
		for (const raw of ['//evil.test', '/\\evil.test', '/\t/evil.test', 'https://evil.test', 'javascript:alert(1)']) {
			expect(safeCallbackUrl(raw), raw).toBeNull()
		}
		// Dot segments resolved as the browser does, then runs of slashes collapsed: a path of this site.
		for (const raw of ['/.//evil.test', '/%2e//evil.test', '/es//evil.test'])
			expect(safeCallbackUrl(raw), raw).toMatch(/^\/[^/\\]/)
		expect(safeCallbackUrl('/..//evil.test/x')).toBe('/evil.test/x')
	})
	it('never returns a target that leaves the origin, for the corpus and for any string', () => {
		for (const raw of REDIRECT_CORPUS) {
			const kept = safeCallbackUrl(raw)
			if (kept !== null) expect(lands(kept), raw).toBe('http://acme.test')
		}
		fc.assert(
			fc.property(
				fc.string({
					unit: fc.constantFrom(
						'/',
						'\\',
						'.',
						'%',
						'2',
						'e',
						'f',
						'F',
						'5',
						'c',
						'\t',
						'\n',
						' ',
						'a',
						':',
						'@',
						'?',
						'#',
						'h',
					),
				}),
				(raw) => {
					const kept = safeCallbackUrl(raw)
					return kept === null || (kept.startsWith('/') && !kept.startsWith('//') && lands(kept) === 'http://acme.test')
				},
			),
			{ numRuns: 2000 },
		)
	})
})

import { describe, expect, it } from 'vitest'
import { normalPath, pagePathOf, pageSearchOf, readRequestTarget } from './request-target.ts'

describe('normalPath', () => {
	it.each([
		['/learn', '/learn'],
		['/learn/', '/learn'],
		['//learn//sign-in//', '/learn/sign-in'],
		['/learn/./sign-in', '/learn/sign-in'],
		['/x/../learn', '/learn'],
		['/x/%2e%2e/learn', '/learn'],
		['/x/%2E%2e/learn', '/learn'],
		['/x/%252e%252e/learn', '/x/%252e%252e/learn'],
		['/le%61rn', '/learn'],
		['/learn%2fsign-in', '/learn%2Fsign-in'],
		['/learn\\sign-in', '/learn/sign-in'],
		['/.well-known/security.txt/../../learn', '/learn'],
		['/', '/'],
		['/..', '/'],
		['/~user', '/~user'],
		['/%7euser', '/~user'],
		// Node 20's URL parser keeps dot segments after a segment that starts with a dot.
		['/api/v1/users/.0/progress/..', '/api/v1/users/.0'],
		['/learn/.x/../admin', '/learn/admin'],
		['/.well-known/./x/.y/%2e%2e/z', '/.well-known/x/z'],
		['/.a/..', '/'],
		['/.a/../..', '/'],
		['/.hidden/file', '/.hidden/file'],
	])('%s is %s', (raw, normal) => {
		expect(normalPath(raw)).toBe(normal)
	})
})

describe('readRequestTarget', () => {
	it('routes a path already in normal form, with its query', () => {
		expect(readRequestTarget('GET', '/learn?x=1')).toEqual({ kind: 'path', path: '/learn', search: '?x=1' })
	})
	it('redirects another spelling of a GET and refuses it for a POST', () => {
		expect(readRequestTarget('GET', '/learn/?x=1')).toMatchObject({ kind: 'redirect', location: '/learn?x=1' })
		expect(readRequestTarget('HEAD', '//evil.test')).toMatchObject({ kind: 'redirect', location: '/evil.test' })
		expect(readRequestTarget('POST', '/learn/')).toMatchObject({ kind: 'refused', status: 400, path: '/learn' })
	})
	it('refuses methods it does not serve and targets that are not paths', () => {
		expect(readRequestTarget('TRACE', '/')).toMatchObject({ kind: 'refused', status: 405 })
		expect(readRequestTarget('GET', 'http://evil.test/')).toMatchObject({ kind: 'refused', status: 400 })
		expect(readRequestTarget('OPTIONS', '*')).toMatchObject({ kind: 'refused', status: 400 })
	})
})

describe('pagePathOf', () => {
	it('reads React Router data requests as their page', () => {
		expect(pagePathOf('/learn/reset/abc.data')).toBe('/learn/reset/abc')
		expect(pagePathOf('/_.data')).toBe('/')
		expect(pagePathOf('/learn')).toBe('/learn')
		expect(pagePathOf('/es/_.data')).toBe('/es')
		expect(pagePathOf('/admin/_.data')).toBe('/admin')
		expect(pagePathOf('/es/learn/course/intro-to-web/enroll.data')).toBe('/es/learn/course/intro-to-web/enroll')
	})
})

describe('pageSearchOf', () => {
	it("takes React Router's transport parameters off and leaves any other query as sent", () => {
		expect(pageSearchOf('?_routes=routes%2Flearn.course.%24slug')).toBe('')
		expect(pageSearchOf('?index&_routes=root')).toBe('')
		expect(pageSearchOf('?preview=1&_routes=root')).toBe('?preview=1')
		expect(pageSearchOf('?q=a+b%20c')).toBe('?q=a+b%20c')
		expect(pageSearchOf('?index=2&_routes=root')).toBe('?index=2')
		expect(pageSearchOf('')).toBe('')
	})
})

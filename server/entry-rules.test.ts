import { describe, expect, it } from 'vitest'
import {
	apiEnvelope,
	keepsTokenFromReferer,
	MAX_BODY_BYTES,
	refuseBody,
	refuseCrossSite,
	refuseTarget,
	routerUrl,
	servedWhileSuspended,
} from './entry-rules.ts'
import { HAND_IN_MAX_BODY_BYTES } from '#app/learning/hand-in-limits.ts'
import { readRequestTarget } from './request-target.ts'

const ORIGIN = 'http://acme.localhost:3000'

describe('refuseTarget', () => {
	it('lets normal and redirected targets go on', () => {
		expect(refuseTarget(readRequestTarget('GET', '/learn'))).toBeNull()
		expect(refuseTarget(readRequestTarget('GET', '/learn/'))).toBeNull()
	})
	it('refuses other methods with Allow, and malformed targets with 400', () => {
		expect(refuseTarget(readRequestTarget('TRACE', '/learn'))).toMatchObject({
			status: 405,
			headers: { allow: expect.any(String) },
		})
		expect(refuseTarget(readRequestTarget('GET', 'http://evil.test/learn'))).toMatchObject({ status: 400 })
	})
})

describe('refuseBody', () => {
	it('asks a chunked unsafe request for its length, and refuses one over the limit', () => {
		expect(refuseBody('POST', { 'transfer-encoding': 'chunked' }, '/learn')).toMatchObject({ status: 411 })
		expect(refuseBody('GET', { 'transfer-encoding': 'chunked' }, '/learn')).toBeNull()
		expect(refuseBody('POST', { 'content-length': String(MAX_BODY_BYTES + 1) }, '/learn')).toMatchObject({
			status: 413,
		})
		expect(refuseBody('POST', { 'content-length': String(MAX_BODY_BYTES) }, '/learn')).toBeNull()
	})

	it('lets a multipart hand-in to an entry carry its files, and nothing larger', () => {
		const entry = '/learn/course/intro-to-web/entry/build-a-form'
		const multipart = (length: number) => ({
			'content-type': 'multipart/form-data; boundary=x',
			'content-length': String(length),
		})
		expect(refuseBody('POST', multipart(HAND_IN_MAX_BODY_BYTES), entry)).toBeNull()
		expect(refuseBody('POST', multipart(HAND_IN_MAX_BODY_BYTES + 1), entry)).toMatchObject({ status: 413 })
		// Elsewhere, or not multipart, the usual limit.
		expect(refuseBody('POST', multipart(MAX_BODY_BYTES + 1), '/admin/users/invite')).toMatchObject({ status: 413 })
		expect(
			refuseBody(
				'POST',
				{ 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(MAX_BODY_BYTES + 1) },
				entry,
			),
		).toMatchObject({ status: 413 })
		expect(refuseBody('POST', multipart(MAX_BODY_BYTES + 1), `${entry}/x`)).toMatchObject({ status: 413 })
	})
})

describe('refuseCrossSite', () => {
	const post = (headers: Record<string, string>, path = '/learn/sign-in') =>
		refuseCrossSite('POST', { ...headers }, ORIGIN, path)
	it('lets same-origin posts and requests without browser headers through', () => {
		expect(post({ origin: ORIGIN })).toBeNull()
		expect(post({ 'sec-fetch-site': 'same-origin' })).toBeNull()
		expect(post({})).toBeNull()
		expect(refuseCrossSite('GET', { origin: 'https://evil.test' }, ORIGIN, '/learn')).toBeNull()
	})
	it('refuses other origins, another tenant, and a null origin from anywhere but this site', () => {
		const hostile: Record<string, string>[] = [
			{ origin: 'https://evil.test' },
			{ origin: 'http://globex.localhost:3000' },
			{ origin: `${ORIGIN}.evil.test` },
			{ origin: 'null', 'sec-fetch-site': 'cross-site' },
			{ 'sec-fetch-site': 'same-site' },
		]
		for (const headers of hostile) expect(post(headers)).toMatchObject({ status: 403 })
	})
	it('accepts a token page’s own null origin, and removes it for the router', () => {
		const headers: Record<string, string> = { origin: 'null', 'sec-fetch-site': 'same-origin' }
		expect(refuseCrossSite('POST', headers, ORIGIN, '/learn/reset/abc')).toBeNull()
		expect(headers.origin).toBeUndefined()
	})
	it('leaves the signed webhook and a SAML ACS to their own checks', () => {
		expect(post({ origin: 'https://cms.example' }, '/api/cms/revalidate')).toBeNull()
		expect(post({ origin: 'https://idp.example' }, '/api/auth/saml/p-1/acs')).toBeNull()
		const headers: Record<string, string> = { origin: 'null', 'sec-fetch-site': 'cross-site' }
		expect(refuseCrossSite('POST', headers, ORIGIN, '/api/auth/saml/p-1/acs')).toBeNull()
		expect(headers.origin).toBeUndefined()
		// Only the ACS itself: its neighbours and look-alikes keep the check.
		for (const path of ['/api/auth/saml/p-1/metadata', '/api/auth/saml/p-1/acs/x', '/api/auth/sso/p-1'])
			expect(post({ origin: 'https://idp.example' }, path)).toMatchObject({ status: 403 })
	})
})

describe('servedWhileSuspended', () => {
	it('is whole paths, never prefixes', () => {
		expect(servedWhileSuspended('/.well-known/security.txt')).toBe(true)
		expect(servedWhileSuspended('/api/auth/callback/github')).toBe(true)
		expect(servedWhileSuspended('/learn/sign-in/error')).toBe(true)
		expect(servedWhileSuspended('/learn/sign-in/error/x')).toBe(false)
		expect(servedWhileSuspended('/api/auth/callback/github/../../learn')).toBe(false)
		expect(servedWhileSuspended('/learn')).toBe(false)
	})
})

describe('routerUrl', () => {
	it('rewrites the favicon and Markdown discovery URLs, keeping the query', () => {
		expect(routerUrl('/favicon.ico', '')).toBe('/api/favicon')
		expect(routerUrl('/about.md', '?x=1')).toBe('/api/aeo/markdown/about?x=1')
		expect(routerUrl('/blog/welcome.md', '')).toBe('/api/aeo/markdown/blog/welcome')
		expect(routerUrl('/learn/course/intro-to-web.md', '')).toBe('/api/aeo/markdown/learn/course/intro-to-web')
		expect(routerUrl('/learn/course/a/b.md', '')).toBe('/learn/course/a/b.md')
		expect(routerUrl('/learn', '?q=1')).toBe('/learn?q=1')
	})
})

describe('keepsTokenFromReferer', () => {
	it('covers token pages and any callbackUrl', () => {
		expect(keepsTokenFromReferer('/learn/reset/tok', '')).toBe(true)
		expect(keepsTokenFromReferer('/invite/tok', '')).toBe(true)
		expect(keepsTokenFromReferer('/learn/sign-in', '?callbackUrl=%2Flearn%2Fverify%2Ftok')).toBe(true)
		expect(keepsTokenFromReferer('/learn/reset', '')).toBe(false)
		expect(keepsTokenFromReferer('/learn', '?x=callbackUrl')).toBe(false)
	})
})

describe('apiEnvelope', () => {
	it('turns an HTML error into the JSON envelope, keeping its cookies', async () => {
		const html = new Response('<h1>Not found</h1>', {
			status: 404,
			headers: { 'content-type': 'text/html', 'set-cookie': 'lms_session=; Max-Age=0' },
		})
		const answer = await apiEnvelope(html)
		expect(answer.status).toBe(404)
		expect(await answer.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' })
		expect(answer.headers.getSetCookie()).toEqual(['lms_session=; Max-Age=0'])
	})
	it('leaves successes and JSON errors alone', async () => {
		const ok = new Response('x')
		expect(await apiEnvelope(ok)).toBe(ok)
		const json = Response.json({ error: 'Nope', code: 'BAD_REQUEST' }, { status: 400 })
		expect(await apiEnvelope(json)).toBe(json)
	})
})

import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from '#app/platform/env.server.ts'
import { testEnv } from '#tests/support/env.ts'

const valid = () => {
	const env = testEnv({})
	return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]))
}

function errorOf(source: Record<string, string | undefined>) {
	try {
		parseEnv(source)
	} catch (error) {
		expect(error).toBeInstanceOf(EnvError)
		return (error as Error).message
	}
	throw new Error('expected a configuration error')
}

describe('configuration', () => {
	it('accepts a complete environment and applies defaults', () => {
		const env = parseEnv({ ...valid(), PORT: undefined, RATE_LIMIT_DRIVER: undefined })
		expect(env.PORT).toBe(3000)
		expect(env.RATE_LIMIT_DRIVER).toBe('memory')
		expect(env.CMS_API_URL).not.toMatch(/\/$/)
	})

	it('takes the hand-in settings, and refuses an orphan grace no longer than the body deadline', () => {
		const env = parseEnv(valid())
		expect([env.HAND_IN_CONCURRENCY, env.HAND_IN_QUEUE_SECONDS, env.HAND_IN_BODY_SECONDS]).toEqual([4, 2, 120])
		expect(env.HAND_IN_ORPHAN_GRACE_SECONDS).toBe(600)
		// A file still arriving must never be old enough to be swept.
		expect(errorOf({ ...valid(), HAND_IN_BODY_SECONDS: '300', HAND_IN_ORPHAN_GRACE_SECONDS: '300' })).toBe(
			'Configuration error: HAND_IN_ORPHAN_GRACE_SECONDS is invalid: must be longer than HAND_IN_BODY_SECONDS',
		)
		expect(errorOf({ ...valid(), HAND_IN_CONCURRENCY: '0' })).toMatch(
			/^Configuration error: HAND_IN_CONCURRENCY is invalid/,
		)
	})

	it.each([
		'AUTH_SECRET',
		'DATABASE_URL',
		'AUTH_URL',
		'CMS_API_URL',
		'CMS_PROJECT_UUID',
		'CMS_API_UUID',
		'CMS_WEBHOOK_SECRET',
		'EMAIL_FROM',
		'APP_BASE_DOMAIN',
	])('names a missing %s in one line', (name) => {
		const message = errorOf({ ...valid(), [name]: undefined })
		expect(message).toBe(`Configuration error: ${name} is missing`)
	})

	it('treats an empty value as missing', () => {
		expect(errorOf({ ...valid(), AUTH_SECRET: '' })).toBe('Configuration error: AUTH_SECRET is missing')
	})

	it.each([
		['CMS_API_URL', 'not a url'],
		['CMS_PROJECT_UUID', 'project-1'],
		['AUTH_SECRET', 'short'],
		['RATE_LIMIT_DRIVER', 'memcached'],
		['SMTP_PORT', '70000'],
		['APP_BASE_DOMAIN', 'https://localhost:3000'],
	])('names a malformed %s', (name, value) => {
		const message = errorOf({ ...valid(), [name]: value })
		expect(message.startsWith(`Configuration error: ${name} is invalid`)).toBe(true)
		expect(message).not.toContain('\n')
		expect(message).not.toContain(value === 'short' ? 'short' : '\u0000')
	})

	it('requires the hosted store variables only for that driver', () => {
		expect(errorOf({ ...valid(), RATE_LIMIT_DRIVER: 'upstash' })).toMatch(
			/^Configuration error: UPSTASH_REDIS_REST_URL/,
		)
		expect(errorOf({ ...valid(), RATE_LIMIT_DRIVER: 'redis' })).toMatch(/^Configuration error: REDIS_URL/)
		expect(
			parseEnv({ ...valid(), RATE_LIMIT_DRIVER: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL,
		).toBeDefined()
	})

	it('enables an identity provider only with both of its variables', () => {
		expect(errorOf({ ...valid(), AUTH_GITHUB_ID: 'abc', AUTH_GITHUB_SECRET: '' })).toMatch(
			/^Configuration error: AUTH_GITHUB_SECRET/,
		)
		expect(parseEnv({ ...valid(), AUTH_GITHUB_ID: 'abc', AUTH_GITHUB_SECRET: 'def' }).AUTH_GITHUB_ID).toBe('abc')
	})

	it('takes SSO_ENCRYPTION_KEY only as 32 bytes in base64, and never repeats it in the error', () => {
		const key = Buffer.alloc(32, 7).toString('base64')
		expect(parseEnv({ ...valid(), SSO_ENCRYPTION_KEY: key }).SSO_ENCRYPTION_KEY).toBe(key)
		expect(parseEnv({ ...valid(), SSO_ENCRYPTION_KEY: '' }).SSO_ENCRYPTION_KEY).toBeUndefined()
		for (const bad of [Buffer.alloc(16, 7).toString('base64'), 'not base64 at all!!', `${key}x`]) {
			const error = errorOf({ ...valid(), SSO_ENCRYPTION_KEY: bad })
			expect(error).toMatch(/^Configuration error: SSO_ENCRYPTION_KEY is invalid/)
			expect(error).not.toContain(bad)
		}
	})
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name)
		return statSync(path).isDirectory() ? filesUnder(path) : [path]
	})
}

describe('code boundaries', () => {
	it('keeps every secret and server-only name out of the browser bundle', () => {
		const example = readFileSync('.env.example', 'utf8')
		const secretsInExample = ['AUTH_SECRET', 'CMS_API_UUID', 'CMS_PROJECT_UUID', 'CMS_WEBHOOK_SECRET'].map(
			(name) => new RegExp(`^${name}=(.*)$`, 'm').exec(example)![1],
		)
		const files = filesUnder('build/client')
		expect(files.length).toBeGreaterThan(0)
		for (const file of files) {
			const text = readFileSync(file, 'latin1')
			for (const value of secretsInExample) expect(text, file).not.toContain(value)
			for (const name of [
				'AUTH_SECRET',
				'DATABASE_URL',
				'CMS_API_UUID',
				'CMS_WEBHOOK_SECRET',
				'SMTP_PASSWORD',
				'password_hash',
			]) {
				expect(text, `${file} mentions ${name}`).not.toContain(name)
			}
		}
	})

	it('reads the Host header only at the server entry', () => {
		const offenders = filesUnder('app')
			.filter((f) => /\.(ts|tsx)$/.test(f))
			.filter((f) =>
				/headers\.get\(\s*['"](x-forwarded-)?host['"]|headers\[['"](x-forwarded-)?host['"]\]|\.headers\.host\b/i.test(
					readFileSync(f, 'utf8'),
				),
			)
		// What the entry does with the Host header is tested from outside: tests/integration/host-resolution.test.ts.
		expect(offenders).toEqual([])
	})
})

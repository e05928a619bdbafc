import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'

const ACME = 'acme.localhost'
const BUDGET_BYTES = 50 * 1024

/**
 * The UI's weight budget on the built app: every learner page's HTML plus its
 * stylesheets, gzip-compressed, within 50 KB; scripts never block rendering
 * (module scripts are deferred; no classic script in the head).
 */
describe.each(DIALECTS)('learner page weight on %s', (dialect) => {
	let stack: Stack
	const measured: Array<[string, number, number]> = []
	beforeAll(async () => {
		stack = await startStack(dialect)
	})
	afterAll(async () => {
		console.log(`page weight (${dialect}), gzip bytes of HTML + CSS and of JavaScript:\n${measured.map(([p, css, js]) => `  ${p.padEnd(52)} ${String(css).padStart(6)} ${String(js).padStart(7)}`).join('\n')}`)
		await stack?.close()
	})

	async function weigh(path: string, cookie?: string) {
		const page = await stack.request(ACME, path, { headers: cookie ? { cookie } : {} })
		expect(page.status, path).toBe(200)
		const html = page.text
		const sheets = [...html.matchAll(/<link\b[^>]*>/g)].filter((m) => m[0].includes('rel="stylesheet"')).map((m) => /href="([^"]+)"/.exec(m[0])![1])
		expect(sheets.length, path).toBeGreaterThan(0)
		let bytes = gzipSync(page.body).length
		for (const href of sheets) bytes += gzipSync((await stack.request(ACME, href)).body).length
		const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])
		for (const attrs of scripts) {
			const src = /src="([^"]+)"/.exec(attrs)?.[1]
			if (src) expect(attrs, `${path}: ${src}`).toMatch(/type="module"|\basync\b|\bdefer\b/)
		}
		const modules = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
		let js = 0
		for (const src of new Set(modules)) js += gzipSync((await stack.request(ACME, src)).body).length
		measured.push([path, bytes, js])
		return bytes
	}

	it('keeps every learner page within 50 KB of HTML and CSS, gzip', async () => {
		for (const path of ['/learn', '/learn/course/intro-to-web', '/blog/welcome', '/learn/sign-in']) expect(await weigh(path), path).toBeLessThanOrEqual(BUDGET_BYTES)
		const b = stack.browser(ACME)
		await b.post('/learn/sign-in', { email: 'learner@acme.test', password: DEMO_PASSWORD })
		for (const path of ['/learn/dashboard', '/learn/course/intro-to-web', '/learn/course/intro-to-web/entry/what-is-http', '/learn/course/intro-to-web/entry/html-forms']) {
			expect(await weigh(`${path}`, b.cookieHeader()), path).toBeLessThanOrEqual(BUDGET_BYTES)
		}
	})
})

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * What a process loads before it answers anything: the built server's imports. Libraries that only
 * one feature uses (signing certificates, drawing social cards, resizing images, SAML, calendar
 * feeds, QR codes, the API docs' YAML, Redis) are loaded when that feature first runs, so a cold
 * start (a restart, a deploy, every test stack) pays about half the CPU it did (decision 0085).
 */
const LOADED_ON_USE = [
	'@digitalbazaar/vc',
	'@digitalbazaar/data-integrity',
	'@digitalbazaar/eddsa-rdfc-2022-cryptosuite',
	'satori',
	'sharp',
	'@node-saml/node-saml',
	'ical-generator',
	'qrcode',
	'yaml',
	'redis',
]

/** Every file the import of the built server loads, ESM (a loader hook) and CommonJS (require's cache). */
function filesLoadedAtStart() {
	const entry = resolve('build/server/index.js')
	if (!existsSync(entry)) throw new Error('build/server/index.js is missing: run `npm run build` first')
	const hooks = `export async function load(url, context, next) { process.stderr.write('LOADED ' + url + '\\n'); return next(url, context) }`
	const script = `
		import { register, createRequire } from 'node:module'
		register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))
		await import(${JSON.stringify(entry)})
		for (const file of Object.keys(createRequire(import.meta.url).cache)) process.stderr.write('LOADED ' + file + '\\n')
	`
	const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
		env: { ...process.env, NODE_ENV: 'production' },
		encoding: 'utf8',
	})
	expect(run.status, run.stderr).toBe(0)
	return run.stderr
		.split('\n')
		.filter((line) => line.startsWith('LOADED '))
		.map((line) => line.slice('LOADED '.length))
}

describe('a cold start', () => {
	it('loads the server and its everyday libraries, not those of one feature', () => {
		const files = filesLoadedAtStart()
		// The check sees what is loaded: the database driver and React are.
		expect(files.some((f) => f.includes('/node_modules/better-sqlite3/'))).toBe(true)
		expect(files.some((f) => f.includes('/node_modules/react-dom/'))).toBe(true)
		const early = LOADED_ON_USE.filter((name) => files.some((f) => f.includes(`/node_modules/${name}/`)))
		expect(early).toEqual([])
	})
})

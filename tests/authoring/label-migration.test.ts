import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'

// The move of categories and tags typed into each course to the sites' lists (decision 0098), by
// the CMS's boot migration, on SQLite and PostgreSQL: label-migration.mjs stores courses as the
// older model did, runs the migration twice and prints what is stored.
const run = promisify(execFile)
const CMS = path.resolve('cms/strapi')

async function migrate(env: Record<string, string>) {
	const { stdout } = await run('node', [path.resolve('tests/authoring/label-migration.mjs')], {
		cwd: CMS,
		env: { ...process.env, NODE_ENV: 'production', LMS_APP_URLS: '', CMS_DATABASE_URL: '', ...env },
		maxBuffer: 16 * 1024 * 1024,
	})
	const line = stdout.split('\n').find((l) => l.startsWith('migration: '))
	if (!line) throw new Error(`no result: ${stdout.slice(-2000)}`)
	return JSON.parse(line.slice('migration: '.length))
}

function judge(out: any) {
	// One list entry per site and slug; en's name, and each locale's as the courses named it.
	expect(out.categories).toEqual([
		{ site: 'acme', slug: 'design', name: 'Design (kept)', nameEs: null },
		{ site: 'acme', slug: 'web-development', name: 'Web development', nameEs: 'Desarrollo web' },
		{ site: 'acme', slug: 'only-in-spanish', name: 'Solo en español', nameEs: 'Solo en español' },
		{ site: 'globex', slug: 'web-development', name: 'Web dev', nameEs: null },
	])
	expect(out.tags).toEqual([{ site: 'acme', slug: 'beginner', name: 'Beginner', nameEs: null }])
	// Every version lists what en's listed, in its order (what the content API served).
	for (const v of out.acme) expect(v).toMatchObject({ categories: ['web-development', 'design'], tags: ['beginner'] })
	expect(out.acme.map((v: any) => `${v.locale} ${v.published}`).sort()).toEqual([
		'en false',
		'en true',
		'es false',
		'es true',
	])
	expect(out.globex).toEqual([{ locale: 'en', published: false, categories: ['web-development'], tags: [] }])
	expect([out.leftLinks, out.leftLabels]).toEqual([0, 0])
}

describe("the CMS's move of courses' categories and tags to the sites' lists", () => {
	it('on SQLite', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'lms-labels-'))
		try {
			judge(await migrate({ CMS_DATABASE_FILE: path.join(dir, 'cms.db') }))
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL', async () => {
		const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} })
		const name = `cms_labels_${process.pid}_${Date.now()}`
		await admin.unsafe(`create database ${name}`)
		try {
			const url = new URL(process.env.TEST_DATABASE_URL!)
			url.pathname = `/${name}`
			judge(await migrate({ CMS_DATABASE_URL: url.toString() }))
		} finally {
			await admin.unsafe(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	})
})

import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { startCms } from '#cms/server.ts'
import type { Dialect } from '#db/client.ts'
import { seedDemoData } from '#db/seed.ts'
import { createTestDatabase } from './databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS, testEnv } from './env.ts'
import { freePort, request } from './http.ts'
import { startMailSink } from './mail.ts'
import { browser, type Browser } from './client.ts'

type ServerModule = typeof import('#server/app.ts')

/**
 * The production build's server module (npm test builds first), with React's production code as
 * users get it: React chooses its code by NODE_ENV when first loaded, and its development checks
 * made every page render twice as slowly (decision 0081). The app's own test mode is the env it is
 * given (testEnv's NODE_ENV), not this process's.
 */
export async function loadBuiltServer(): Promise<ServerModule> {
	const entry = resolve('build/server/index.js')
	if (!existsSync(entry)) throw new Error('build/server/index.js is missing: run `npm run build` first')
	process.env.NODE_ENV = 'production'
	return import(pathToFileURL(entry).href)
}

/**
 * The whole stack on loopback for one test file: a fresh migrated and seeded
 * database of the dialect, the local content service and the built app, each
 * on a free port.
 */
export async function startStack(
	dialect: Dialect,
	envOverrides: Record<string, string> = {},
	options: {
		cmsContentDir?: string
		/** Another content service for the app (Strapi: tests/authoring); the local one still starts, unused. */
		contentServiceUrl?: string
		/** A fixed port (a CMS's webhooks are configured with it), else a free one. */
		port?: number
	} = {},
) {
	const db = await createTestDatabase(dialect)
	const seeded = await seedDemoData(db, DEMO_PASSWORD)
	const cms = await startCms({
		apiKey: TEST_SECRETS.CMS_API_UUID,
		projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
		contentDir: options.cmsContentDir,
	})
	const mail = await startMailSink()
	const { listen } = await loadBuiltServer()
	// AUTH_URL is the origin browsers use (spec): its scheme and port are those of every absolute URL.
	const port = options.port ?? (await freePort())
	const env = testEnv({
		AUTH_URL: `http://localhost:${port}`,
		CMS_API_URL: options.contentServiceUrl ?? cms.url,
		DATABASE_URL: db.url,
		SMTP_HOST: '127.0.0.1',
		SMTP_PORT: String(mail.port),
		...envOverrides,
	})
	const app = await listen({ env, db, port, host: '127.0.0.1' })
	return {
		db,
		cms,
		mail,
		env,
		seeded,
		port: app.port,
		/** The app's cache-tag versions (revalidation is observable through them). */
		tags: app.tags,
		/** Resolves once the work requests left behind is done: jobs (mail, housekeeping) and what runs after answers. */
		settled: async () => {
			await app.afterResponse.settled()
			await app.jobs.idle()
		},
		/** The app's job queue worker (tests wait for it to be idle). */
		jobs: app.jobs,
		request: (host: string, path: string, init?: Parameters<typeof request>[3]) => request(app.port, host, path, init),
		browser: (host: string) => browser(app.port, host),
		/** A browser signed in through the password form (the demo password unless given); throws unless it answers 302. */
		signIn: async (email: string, host = 'acme.localhost', password = DEMO_PASSWORD): Promise<Browser> => {
			const b = browser(app.port, host)
			const res = await b.post('/learn/sign-in', { email, password })
			if (res.status !== 302) throw new Error(`sign-in of ${email} on ${host}: ${res.status}`)
			return b
		},
		/**
		 * The super_admin's browser signed in on the apex, entered into a tenant's host through
		 * /admin/tenants and its override link (opened, then its button): a browser on `<slug>.localhost` as that
		 * super_admin.
		 */
		async enter(apex: Browser, tenant: { id: string; slug: string }) {
			const entered = await apex.post('/admin/tenants', { intent: 'enter', tenantId: tenant.id })
			const link = new URL(String(entered.headers.location), 'http://invalid')
			if (entered.status !== 302 || link.host !== `${tenant.slug}.localhost:${app.port}`)
				throw new Error(`entering ${tenant.slug}: ${entered.status} to ${link.href}`)
			// The link's page asks; its button (a same-origin post) signs in (decision 0032).
			const b = browser(app.port, `${tenant.slug}.localhost`)
			const asked = await b.get(`${link.pathname}${link.search}`)
			if (asked.status !== 200) throw new Error(`entering ${tenant.slug}: the link answered ${asked.status}`)
			const landed = await b.post(`${link.pathname}${link.search}`, {})
			if (landed.headers.location !== '/admin')
				throw new Error(`entering ${tenant.slug} landed on ${landed.headers.location}`)
			return b
		},
		async close() {
			await app.close()
			await cms.close()
			await mail.close()
			await db.drop()
		},
	}
}

export type Stack = Awaited<ReturnType<typeof startStack>>

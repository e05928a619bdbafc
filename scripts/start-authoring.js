// `npm run start:authoring`: the authoring stack. Strapi (cms/strapi) as the content service,
// installed and built on first run, seeded from cms/content/ (idempotent), on STRAPI_PORT (1337);
// then the app pointed at it (scripts/start.js). Prints the CMS admin URL and the demo logins.
// `npm start` keeps the light local content service (cms/server.ts).
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

if (existsSync('.env')) process.loadEnvFile('.env')
const cmsDir = 'cms/strapi'
const strapiPort = process.env.STRAPI_PORT ?? '1337'
const appPort = process.env.PORT ?? '3000'
const base = process.env.APP_BASE_DOMAIN ?? 'localhost'
const demoPassword = process.env.CMS_DEMO_PASSWORD || 'Authoring-demo-2026'

function step(what, command, args) {
	console.log(`authoring: ${what}…`)
	const started = Date.now()
	const result = spawnSync(command, args, { cwd: cmsDir, stdio: 'inherit', env: cmsEnv() })
	if (result.status !== 0) {
		console.error(`authoring: ${what} failed (exit ${result.status})`)
		process.exit(1)
	}
	console.log(`authoring: ${what} took ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

// The CMS's own secrets, made once (cms/strapi/.env, not committed).
if (!existsSync(`${cmsDir}/.env`)) {
	const r = () => randomBytes(16).toString('base64')
	writeFileSync(
		`${cmsDir}/.env`,
		[
			`APP_KEYS=${r()},${r()}`,
			`ADMIN_JWT_SECRET=${r()}`,
			`API_TOKEN_SALT=${r()}`,
			`TRANSFER_TOKEN_SALT=${r()}`,
			`ENCRYPTION_KEY=${r()}`,
		].join('\n') + '\n',
	)
}
const cmsSecrets = Object.fromEntries(
	readFileSync(`${cmsDir}/.env`, 'utf8')
		.split('\n')
		.filter((l) => l.includes('='))
		.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
)
function cmsEnv() {
	return {
		...process.env,
		...cmsSecrets,
		NODE_ENV: 'production',
		STRAPI_PORT: strapiPort,
		// The app's key, project and webhook secret, so each side knows the other.
		CMS_API_UUID: process.env.CMS_API_UUID,
		CMS_PROJECT_UUID: process.env.CMS_PROJECT_UUID,
		CMS_WEBHOOK_SECRET: process.env.CMS_WEBHOOK_SECRET,
		APP_BASE_DOMAIN: base,
		// Webhooks go to the app's apex (a known host); other processes hear them from it (README, Production).
		LMS_APP_URLS: process.env.LMS_APP_URLS ?? `http://${base}:${appPort}`,
	}
}

if (!existsSync(`${cmsDir}/node_modules/@strapi/strapi/package.json`))
	step('installing the CMS (first run, about 4 minutes)', 'npm', ['ci', '--no-audit', '--no-fund'])
if (!existsSync(`${cmsDir}/dist/build/index.html`))
	step('building the CMS admin panel (first run, a few minutes and 2 GB of memory)', process.execPath, [
		'scripts/build-admin.js',
	])
step('importing cms/content/ into the CMS (only what is missing)', process.execPath, ['scripts/seed.js'])

const children = []
let stopping = false
function run(name, command, args, options) {
	const child = spawn(command, args, { stdio: 'inherit', ...options })
	child.on('exit', (code, signal) => {
		if (stopping) return
		console.error(`${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`)
		stop(code ?? 1)
	})
	children.push(child)
}
function stop(code = 0) {
	stopping = true
	for (const child of children) child.kill('SIGTERM')
	setTimeout(() => process.exit(code), 1000).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

run('CMS', process.execPath, ['node_modules/.bin/strapi', 'start'], { cwd: cmsDir, env: cmsEnv() })
for (let i = 0; i < 300 && !stopping; i++) {
	try {
		if ((await fetch(`http://127.0.0.1:${strapiPort}/_health`)).status === 204) break
	} catch {
		// Not listening yet.
	}
	await new Promise((r) => setTimeout(r, 200))
}
console.log(`
  The CMS (Strapi) is running: http://localhost:${strapiPort}/admin
  Demo logins (password ${demoPassword}; docs/authoring.md):
    root@platform.test     Super Admin: everything, settings and users
    editor@platform.test   Editor: every site's content
    author@acme.test       Authors: acme (Acme's courses, pages, posts, media)
    author@globex.test     Authors: globex
    author@initech.test    Authors: initech
`)
// The app, reading its content from the CMS (the local content service is not started).
run('app', process.execPath, ['scripts/start.js'], {
	env: {
		...process.env,
		CMS_API_URL: `http://127.0.0.1:${strapiPort}/api/v1`,
		// /admin/courses links each course to its page in the CMS admin (decision 0073).
		CMS_ADMIN_URL: process.env.CMS_ADMIN_URL ?? `http://localhost:${strapiPort}`,
		AUTHORING_CMS: '1',
	},
})

// `npm start`: runs the local content service and the app together (after
// prestart has built, migrated and seeded), then prints the URLs to open.
// `npm run dev` (--dev): the same, with the app from source through Vite (scripts/dev.ts).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

if (existsSync('.env')) process.loadEnvFile('.env')
const port = process.env.PORT ?? '3000'
const base = process.env.APP_BASE_DOMAIN ?? 'localhost'
const children = []

function run(name, command, args) {
	const child = spawn(command, args, { stdio: 'inherit', env: process.env })
	child.on('exit', (code, signal) => {
		if (stopping) return
		console.error(`${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`)
		stop(code ?? 1)
	})
	children.push(child)
	return child
}

let stopping = false
function stop(code = 0) {
	stopping = true
	for (const child of children) child.kill('SIGTERM')
	setTimeout(() => process.exit(code), 500).unref()
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

// Not under `npm run start:authoring` (AUTHORING_CMS): the content service is Strapi there.
const localCms =
	!process.env.AUTHORING_CMS && /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(process.env.CMS_API_URL ?? '')
if (localCms) run('content service', process.execPath, ['--import', 'tsx', 'cms/server.ts'])
// Mail sent to a loopback SMTP server is printed by this one.
const localMail = /^(127\.0\.0\.1|localhost)$/.test(process.env.SMTP_HOST ?? '') && !process.env.RESEND_API_KEY
if (localMail) run('mail console', process.execPath, ['--import', 'tsx', 'scripts/mail-console.ts'])
const dev = process.argv.includes('--dev')
if (dev) process.env.NODE_ENV = 'development'
run('app', process.execPath, dev ? ['--import', 'tsx', 'scripts/dev.ts'] : ['server.js'])

// Print the URLs once the app answers.
for (let i = 0; i < 100 && !stopping; i++) {
	try {
		const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { host: `${base}:${port}` } })
		if (res.ok) break
	} catch {
		// Not listening yet.
	}
	await new Promise((r) => setTimeout(r, 200))
}
if (!stopping) {
	console.log(`
  Open LMS is running${dev ? ' from source, with hot module reload' : ''}.
    Platform site:      http://${base}:${port}/
    Acme (tenant):      http://acme.${base}:${port}/learn
    Globex (tenant):    http://globex.${base}:${port}/learn
    Initech (suspended) http://initech.${base}:${port}/
  Demo accounts use the password in SEED_DEMO_PASSWORD (see README).
`)
}

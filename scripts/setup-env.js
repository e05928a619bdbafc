// First run of `npm start`: create .env from .env.example with a fresh AUTH_SECRET and SSO_ENCRYPTION_KEY.
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'

if (!existsSync('.env')) {
	copyFileSync('.env.example', '.env')
	const secret = randomBytes(32).toString('base64url')
	const ssoKey = randomBytes(32).toString('base64')
	const text = readFileSync('.env', 'utf8')
		.replace(/^AUTH_SECRET=.*$/m, `AUTH_SECRET=${secret}`)
		.replace(/^SSO_ENCRYPTION_KEY=.*$/m, `SSO_ENCRYPTION_KEY=${ssoKey}`)
	writeFileSync('.env', text)
	console.log(
		'Created .env from .env.example (with a new AUTH_SECRET and SSO_ENCRYPTION_KEY). Edit it to change the configuration.',
	)
}

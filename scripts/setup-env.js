// First run of `npm start`: create .env from .env.example with a fresh AUTH_SECRET.
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'

if (!existsSync('.env')) {
	copyFileSync('.env.example', '.env')
	const secret = randomBytes(32).toString('base64url')
	writeFileSync('.env', readFileSync('.env', 'utf8').replace(/^AUTH_SECRET=.*$/m, `AUTH_SECRET=${secret}`))
	console.log('Created .env from .env.example (with a new AUTH_SECRET). Edit it to change the configuration.')
}

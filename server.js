// Production entry: `node server.js` after `npm run build`. Loads .env when present.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

if (existsSync('.env')) process.loadEnvFile('.env')
const { main } = await import('./build/server/index.js')
await main({ clientDir: fileURLToPath(new URL('./build/client', import.meta.url)) })

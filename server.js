// Production entry: `node server.js` after `npm run build`. Loads .env when present.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

if (existsSync('.env')) process.loadEnvFile('.env')
// React and React Router choose their production or development code by NODE_ENV when first
// loaded; unset, they would run their development checks in front of users.
process.env.NODE_ENV ??= 'production'
const { main } = await import('./build/server/index.js')
await main({ clientDir: fileURLToPath(new URL('./build/client', import.meta.url)) })

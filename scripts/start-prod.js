// `npm run start:prod`: apply the migrations (under a PostgreSQL advisory
// lock, so several processes may start at once), then serve. SIGTERM drains
// in-flight requests before exiting (server/app.ts).
import { spawnSync } from 'node:child_process'

const migrate = spawnSync(process.execPath, ['--import', 'tsx', 'db/migrate.ts'], { stdio: 'inherit' })
if (migrate.status !== 0) process.exit(migrate.status ?? 1)
await import('../server.js')

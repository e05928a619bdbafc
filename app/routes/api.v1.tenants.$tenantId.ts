import { platformApiRoute } from '#app/integrations/api.server.ts'
import { readTenant } from '#app/integrations/api-tenants.server.ts'

// GET reads one tenant (platform keys only, decision 0087; documented in app/platform/api-contract-v1.ts).
const api = platformApiRoute({ get: readTenant })
export const loader = api.loader

import { platformApiRoute } from '#app/integrations/api.server.ts'
import { createTenantByApi, listTenants } from '#app/integrations/api-tenants.server.ts'

// GET lists the platform's tenants, POST creates one (platform keys only, decision 0087; documented in app/platform/api-contract-v1.ts).
const api = platformApiRoute({ get: listTenants, post: createTenantByApi })
export const loader = api.loader
export const action = api.action

import { platformApiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { changeTenantStatus } from '#app/integrations/api-tenants.server.ts'

// POST suspends, archives or reactivates a tenant (platform keys only, decision 0087; documented in app/platform/api-contract-v1.ts).
const api = platformApiRoute({ post: changeTenantStatus })
export const loader = postOnly
export const action = api.action

import { apiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { changeUserRole } from '#app/integrations/api-users.server.ts'

// POST changes a person's role (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ post: changeUserRole })
export const loader = postOnly
export const action = api.action

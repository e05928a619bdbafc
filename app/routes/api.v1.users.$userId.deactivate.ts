import { apiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { deactivate } from '#app/integrations/api-users.server.ts'

// POST deactivates a person (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ post: deactivate })
export const loader = postOnly
export const action = api.action

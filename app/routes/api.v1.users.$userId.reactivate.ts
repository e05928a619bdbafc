import { apiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { reactivate } from '#app/integrations/api-users.server.ts'

// POST reactivates a person (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ post: reactivate })
export const loader = postOnly
export const action = api.action

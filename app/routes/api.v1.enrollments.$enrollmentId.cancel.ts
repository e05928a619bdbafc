import { apiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { unenroll } from '#app/integrations/api-learning.server.ts'

// POST cancels an enrollment (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ post: unenroll })
export const loader = postOnly
export const action = api.action

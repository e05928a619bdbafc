import { apiRoute } from '#app/integrations/api.server.ts'
import { readProgress } from '#app/integrations/api-learning.server.ts'

// GET reads a learner's progress and result in one course (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: readProgress })
export const loader = api.loader

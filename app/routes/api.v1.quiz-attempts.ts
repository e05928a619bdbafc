import { apiRoute } from '#app/integrations/api.server.ts'
import { listQuizAttempts } from '#app/integrations/api-learning.server.ts'

// GET lists quiz attempts (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listQuizAttempts })
export const loader = api.loader

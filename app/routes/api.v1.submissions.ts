import { apiRoute } from '#app/integrations/api.server.ts'
import { listSubmissions } from '#app/integrations/api-learning.server.ts'

// GET lists assignment submissions with their grades (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listSubmissions })
export const loader = api.loader

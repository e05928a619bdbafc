import { apiRoute } from '#app/integrations/api.server.ts'
import { listCertificates } from '#app/integrations/api-learning.server.ts'

// GET lists certificates (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listCertificates })
export const loader = api.loader

import { apiRoute } from '#app/integrations/api.server.ts'
import { readCertificate } from '#app/integrations/api-learning.server.ts'

// GET reads a certificate with its signed credential (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: readCertificate })
export const loader = api.loader

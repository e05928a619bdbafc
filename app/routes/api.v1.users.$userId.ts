import { apiRoute } from '#app/integrations/api.server.ts'
import { readUser } from '#app/integrations/api-users.server.ts'

// GET reads one person of the site (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: readUser })
export const loader = api.loader

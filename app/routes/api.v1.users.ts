import { apiRoute } from '#app/integrations/api.server.ts'
import { createUser, listUsers } from '#app/integrations/api-users.server.ts'

// GET lists the site's people, POST creates one (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listUsers, post: createUser })
export const loader = api.loader
export const action = api.action

import { apiRoute } from '#app/integrations/api.server.ts'
import { listCourses } from '#app/integrations/api-learning.server.ts'

// GET lists the site's courses (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listCourses })
export const loader = api.loader

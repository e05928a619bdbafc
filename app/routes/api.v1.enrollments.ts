import { apiRoute } from '#app/integrations/api.server.ts'
import { enroll, listEnrollments } from '#app/integrations/api-learning.server.ts'

// GET lists enrollments by course or person, POST enrolls (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ get: listEnrollments, post: enroll })
export const loader = api.loader
export const action = api.action

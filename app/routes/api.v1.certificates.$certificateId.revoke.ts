import { apiRoute } from '#app/integrations/api.server.ts'
import { postOnly } from '#app/platform/errors.ts'
import { revokeCertificate } from '#app/integrations/api-learning.server.ts'

// POST revokes a certificate (the REST API, decision 0071; documented in app/platform/api-contract-v1.ts).
const api = apiRoute({ post: revokeCertificate })
export const loader = postOnly
export const action = api.action

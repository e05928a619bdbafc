/**
 * The app's key on the content API and the authoring endpoints (`x-api-key: <CMS_API_UUID>`): a
 * missing or wrong one is a 401 before any route reads a document.
 */
import { errors } from '@strapi/utils'
import { createKeyCheck } from '../utils/api-key'

const keyMatches = createKeyCheck()

export default (policyContext: { request: { header: Record<string, string | string[] | undefined> } }) => {
	if (keyMatches(policyContext.request.header['x-api-key'])) return true
	throw new errors.UnauthorizedError('Invalid API key')
}

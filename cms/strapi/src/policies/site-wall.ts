/**
 * The wall between sites on every admin route of Strapi's plugins (api::authoring.guard puts it
 * first and decides). Async, which Strapi's PolicyHandler type does not say but its policies allow.
 */
import type { Core } from '@strapi/strapi'
import type { AdminRequest } from '../api/authoring/services/guard'
import { service } from '../utils/services'

export default (policyContext: AdminRequest, _config: unknown, { strapi }: { strapi: Core.Strapi }) =>
	service(strapi, 'api::authoring.guard').sitePolicy(policyContext)

'use strict'
/**
 * The app's authoring endpoints (docs/decisions/0053-tenant-authoring.md), beside the content API:
 * /api/v1/projects/<project>/sites/<site>/authoring. Strapi's own authentication is off for them
 * (no user or API token of Strapi's): the app's key is checked instead, by the content API's
 * middleware first and by the controller again.
 */
const base = '/v1/projects/:project/sites/:site/authoring'

module.exports = {
	routes: [
		{ method: 'PUT', path: base, handler: 'authoring.provision', config: { auth: false } },
		{ method: 'POST', path: `${base}/invitations`, handler: 'authoring.invite', config: { auth: false } },
	],
}

/**
 * The app's authoring endpoints (docs/decisions/0053-tenant-authoring.md), beside the content API:
 * /api/v1/projects/<project>/sites/<site>/authoring. Strapi's own authentication is off for them
 * (no user or API token of Strapi's): the app's key is their policy instead (policies/api-key.ts).
 */
const base = '/v1/projects/:project/sites/:site/authoring'

export default {
	routes: [
		{
			method: 'PUT',
			path: base,
			handler: 'authoring.provision',
			config: { auth: false, policies: ['global::api-key'] },
		},
		{
			method: 'POST',
			path: `${base}/invitations`,
			handler: 'authoring.invite',
			config: { auth: false, policies: ['global::api-key'] },
		},
	],
}

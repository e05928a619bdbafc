/**
 * The LMS content API's routes (controllers/content.ts): each behind the app's key (the
 * global::api-key policy), none behind Strapi's own authentication. With CMS_TEST_CONTROLS=true, the
 * test controls too, and every content read counted and open to injected faults (middlewares/test-faults.ts).
 * The last route answers any other GET under /api/v1/ with the envelope's 404, after the key.
 */
const testing = process.env.CMS_TEST_CONTROLS === 'true'
const config = {
	auth: false as const,
	policies: ['global::api-key'],
	middlewares: testing ? ['api::content.test-faults'] : [],
}
const site = '/v1/projects/:project/sites/:site'
const get = (path: string, handler: string) => ({ method: 'GET', path, handler: `content.${handler}`, config })
const control = (method: string, path: string, handler: string) => ({
	method,
	path,
	handler: `content.${handler}`,
	config: { auth: false as const, policies: ['global::api-key'] },
})

export default {
	routes: [
		...(testing
			? [
					control('GET', '/v1/_stats', 'stats'),
					control('POST', '/v1/_stats', 'resetStats'),
					control('POST', '/v1/_control', 'control'),
					control('GET', '/v1/:name(_routes|_rows)', 'testRead'),
				]
			: []),
		get(`${site}/site`, 'site'),
		get(`${site}/page-hierarchy`, 'pageHierarchy'),
		get(`${site}/courses`, 'courses'),
		get(`${site}/courses/:slug`, 'course'),
		get(`${site}/courses/:slug/entries/:entry`, 'entry'),
		get(`${site}/pages`, 'pages'),
		get(`${site}/pages/:slug`, 'page'),
		get(`${site}/blog-posts`, 'posts'),
		get(`${site}/blog-posts/:slug`, 'post'),
		get(`${site}/assets/:asset`, 'asset'),
		control('GET', '/v1/(.*)', 'notFound'),
	],
}

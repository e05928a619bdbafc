'use strict'
/**
 * Read-only test controls (CMS_TEST_CONTROLS=true only, behind the API key; api/content):
 * Strapi's own route table, and every stored row of the content types, for the walls test
 * (tests/authoring/walls.test.ts) to generate its cases from and to see that nothing changed.
 */
const { UID, POPULATE } = require('./documents')

const routes = (strapi) =>
	strapi.server
		.listRoutes()
		.filter((layer) => layer.methods.length)
		.map((layer) => ({ methods: layer.methods.filter((m) => m !== 'HEAD'), path: layer.path }))

async function rows(strapi) {
	const out = {}
	for (const uid of Object.values(UID))
		out[uid] = await strapi.db.query(uid).findMany({ populate: POPULATE[uid] ?? true, orderBy: { id: 'asc' } })
	return out
}

module.exports = { TEST_READS: { '/api/v1/_routes': routes, '/api/v1/_rows': rows } }

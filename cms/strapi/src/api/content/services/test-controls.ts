/**
 * What the tests may see and change (CMS_TEST_CONTROLS=true only), as the local content service's
 * _stats and _control: counts of the content API's requests, and faults to inject into its answers.
 * And two reads (GET /api/v1/_routes, /api/v1/_rows): Strapi's own route table, and every stored row
 * of the content types, for the walls test (tests/authoring/walls.test.ts) to generate its cases from
 * and to see that nothing changed.
 */
import type { Core } from '@strapi/strapi'
import { POPULATE, UID } from '../../../utils/content-types'

function testControls({ strapi }: { strapi: Core.Strapi }) {
	const stats = {
		total: 0,
		byPath: {} as Record<string, number>,
		byLocale: {} as Record<string, number>,
		byStatus: {} as Record<string, number>,
	}
	const faults = { delayMs: 0, mode: 'ok' as 'ok' | 'error' | 'garbage' }
	const routes = () =>
		strapi.server
			.listRoutes()
			.filter((layer) => layer.methods.length)
			.map((layer) => ({ methods: layer.methods.filter((m: string) => m !== 'HEAD'), path: layer.path }))
	async function rows() {
		const out: Record<string, unknown[]> = {}
		for (const uid of Object.values(UID))
			out[uid] = await strapi.db.query(uid).findMany({ populate: POPULATE[uid] ?? true, orderBy: { id: 'asc' } })
		return out
	}
	return {
		stats,
		faults,
		reset() {
			Object.assign(stats, { total: 0, byPath: {}, byLocale: {}, byStatus: {} })
		},
		/** The reads by their path. */
		reads: { '/api/v1/_routes': routes, '/api/v1/_rows': rows } as Record<string, () => unknown>,
	}
}

export type TestControls = ReturnType<typeof testControls>
export default testControls

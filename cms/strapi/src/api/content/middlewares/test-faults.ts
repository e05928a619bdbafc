/**
 * Counts the content API's requests and injects the faults the tests set (CMS_TEST_CONTROLS=true
 * only; services/test-controls.ts): a delay, a 500, or a body that is not JSON.
 */
import type { Core } from '@strapi/strapi'
import type { Context, Next } from 'koa'
import { service } from '../../../utils/services'

export default (_config: unknown, { strapi }: { strapi: Core.Strapi }) =>
	async (ctx: Context, next: Next) => {
		const { stats, faults } = service(strapi, 'api::content.test-controls')
		stats.total++
		stats.byPath[ctx.path] = (stats.byPath[ctx.path] ?? 0) + 1
		const locale = ctx.query.locale
		const requested = (Array.isArray(locale) ? locale[0] : locale) ?? 'none'
		stats.byLocale[requested] = (stats.byLocale[requested] ?? 0) + 1
		ctx.res.once('finish', () => (stats.byStatus[ctx.res.statusCode] = (stats.byStatus[ctx.res.statusCode] ?? 0) + 1))
		if (faults.delayMs > 0) await new Promise((r) => setTimeout(r, faults.delayMs))
		if (faults.mode === 'error') {
			ctx.status = 500
			ctx.type = 'application/json; charset=utf-8'
			ctx.body = JSON.stringify({ error: { status: 500, message: 'Injected failure' } })
			return
		}
		if (faults.mode === 'garbage') {
			ctx.status = 200
			ctx.type = 'application/json'
			ctx.body = '{"data": [tru'
			return
		}
		await next()
	}

/**
 * The upload plugin's admin routes, limited to an author's own sites (src/utils/media-rules.ts, on
 * the scope of api::authoring.media-scope), and its upload service, taking only the types content
 * needs (src/utils/upload-types.ts).
 */
import type { Next } from 'koa'
import { RULES, type AdminContext } from '../../utils/media-rules'
import { service } from '../../utils/services'
import { guardUploadTypes, type UploadPlugin } from '../../utils/upload-types'

/** An admin controller's action; Strapi adds its error helpers to Koa's context. */
type Action = (ctx: Context, next: Next) => unknown
type Context = AdminContext & { notFound(message: string): void; forbidden(message: string): void }
type Plugin = UploadPlugin & { controllers: Record<string, Record<string, Action>> }

/** Wraps the upload plugin's admin controllers with RULES. */
function guardUploadPlugin(plugin: Plugin) {
	for (const [name, actions] of Object.entries(RULES)) {
		const controller = plugin.controllers[name]
		for (const [action, rule] of Object.entries(actions)) {
			const handler = controller[action]
			controller[action] = async (ctx, next) => {
				// The plugin is extended before the APIs load: their services are reached per request, on the global strapi.
				const scope = await service(strapi, 'api::authoring.media-scope').scopeOf(ctx.state.user)
				if (scope && rule.before) {
					const verdict = await rule.before(ctx, scope)
					if (verdict === 'missing') return ctx.notFound('not found')
					if (verdict !== true) return ctx.forbidden('outside your sites')
				}
				const result = await handler.call(controller, ctx, next)
				if (scope && rule.after && ctx.status < 300 && ctx.body) rule.after(ctx, scope)
				return result
			}
		}
	}
	return plugin
}

export default (plugin: Plugin) => guardUploadTypes(guardUploadPlugin(plugin))

/**
 * PUT …/sites/<site>/authoring {name?, status?, timeZone?}: the tenant's site document, authors' role and media
 * folder as the app's tenant is (services/provisioning.ts); idempotent. POST …/authoring/invitations
 * {email}: an invitation to author the site. Errors answer as the content API's: {error: {status, message}}.
 */
import type { Core } from '@strapi/strapi'
import type { Context } from 'koa'
import { project } from '../../../utils/api-key'
import { service } from '../../../utils/services'
import { isTimeZone, SITE_KEY, STATUSES, type Status } from '../../../utils/tenants'

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/

type Ctx = Context & { params: Record<string, string>; request: Context['request'] & { body?: unknown } }

export default ({ strapi }: { strapi: Core.Strapi }) => {
	const provisioning = () => service(strapi, 'api::authoring.provisioning')
	const fail = (ctx: Ctx, status: number, message: string) => {
		ctx.status = status
		ctx.body = { error: { status, message } }
	}
	/** The tenant's site the request names, or null once it has answered. */
	const siteOf = (ctx: Ctx) => {
		if (ctx.params.project !== project()) return (fail(ctx, 404, 'Unknown project'), null)
		const site = ctx.params.site
		if (!SITE_KEY.test(site) || site === '_apex') return (fail(ctx, 400, "Not a tenant's site key"), null)
		return site
	}
	const body = (ctx: Ctx): Record<string, unknown> => {
		const b = ctx.request.body
		return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {}
	}

	return {
		async provision(ctx: Ctx) {
			const site = siteOf(ctx)
			if (!site) return
			const { name, status = 'active', timeZone } = body(ctx)
			if (!STATUSES.includes(status as Status)) return fail(ctx, 400, `status must be one of ${STATUSES.join(', ')}`)
			if (name !== undefined && (typeof name !== 'string' || name.length > 120))
				return fail(ctx, 400, 'name must be text of at most 120 characters')
			if (timeZone !== undefined && !isTimeZone(timeZone))
				return fail(ctx, 400, 'timeZone must be an IANA time zone name, such as Europe/Madrid')
			ctx.body = {
				data: await provisioning().provisionSite({ key: site, name, status: status as Status, timeZone }),
			}
		},
		async invite(ctx: Ctx) {
			const site = siteOf(ctx)
			if (!site) return
			const { email } = body(ctx)
			const address = typeof email === 'string' ? email.trim().toLowerCase() : ''
			if (address.length > 254 || !EMAIL.test(address)) return fail(ctx, 400, 'email must be an email address')
			const invited = await provisioning().inviteAuthor(site, address)
			if (!invited) return fail(ctx, 409, 'The site is not open for authoring (not provisioned, or suspended)')
			ctx.status = invited.state === 'invited' ? 201 : 200
			ctx.body = { data: invited }
		},
	}
}

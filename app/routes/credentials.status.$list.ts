import { didForOrigin } from '#app/certificates/keys.server.ts'
import { certificateHost, jsonLd, jsonNotFound } from '#app/certificates/responses.server.ts'
import { statusListCredential } from '#app/certificates/status-list.server.ts'
import { statusListExists } from '#app/certificates/records.server.ts'
import type { Route } from './+types/credentials.status.$list.ts'

/**
 * The tenant's revocation list `n` as a signed BitstringStatusListCredential, issued by the DID of
 * this host. Cacheable for five minutes: a revocation reaches verifiers within that.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { ctx, tenant } = certificateHost(context)
	const list = /^[1-9]\d{0,5}$/.test(params.list) ? Number(params.list) : 0
	if (!list || !(await statusListExists(ctx.db, tenant.id, list))) return jsonNotFound()
	const json = await statusListCredential(
		ctx.db,
		ctx.env.AUTH_SECRET,
		tenant.id,
		list,
		ctx.origin,
		didForOrigin(ctx.origin),
	)
	return jsonLd(json, 'application/vc', 'public, max-age=300')
}

import { didDocument, didForOrigin } from '#app/certificates/keys.server.ts'
import { certificateHost, jsonLd } from '#app/certificates/responses.server.ts'
import type { Route } from './+types/well-known.did.json.ts'

/**
 * The tenant's DID document (did:web of this host): every signing key it ever had, so certificates
 * signed before a rotation still verify. Each of the tenant's hosts answers for its own DID.
 */
export async function loader({ context }: Route.LoaderArgs) {
	const { ctx, tenant } = certificateHost(context)
	const document = await didDocument(ctx.db, tenant.id, didForOrigin(ctx.origin))
	return jsonLd(JSON.stringify(document), 'application/did+ld+json', 'public, max-age=300')
}

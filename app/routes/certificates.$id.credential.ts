import { certificateHost, jsonLd, jsonNotFound } from '#app/certificates/responses.server.ts'
import { PUBLIC_ID } from '#app/certificates/verify.server.ts'
import { certificateByPublicId } from '#app/certificates/records.server.ts'
import type { Route } from './+types/certificates.$id.credential.ts'

/**
 * A certificate's credential, exactly as it was signed (the stored bytes), for its learner to keep
 * and for any verifier: whoever has the unguessable address may see what its verification page shows.
 * A revoked one is still served; its status list says it is revoked.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { ctx, tenant } = certificateHost(context)
	if (!PUBLIC_ID.test(params.id)) return jsonNotFound()
	const certificate = await certificateByPublicId(ctx.db, tenant.id, params.id)
	if (!certificate) return jsonNotFound()
	return jsonLd(certificate.credential_json, 'application/vc', 'no-store', {
		'content-disposition': `attachment; filename="certificate-${certificate.public_id}.json"`,
		'x-robots-tag': 'noindex',
	})
}

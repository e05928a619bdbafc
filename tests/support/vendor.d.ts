// The outside verifier's packages ship no types: the parts the certificate tests call.
declare module '@digitalbazaar/security-document-loader' {
	export function securityLoader(): {
		addStatic(url: string, document: unknown): void
		setProtocolHandler(options: {
			protocol: string
			handler: { get(options: { url: string }): Promise<unknown> }
		}): void
		build(): (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>
	}
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
	export function decodeList(options: {
		encodedList: string
	}): Promise<{ length: number; getStatus(index: number): boolean }>
	export function checkStatus(options: {
		credential: Record<string, unknown>
		documentLoader: (url: string) => Promise<unknown>
		suite: unknown
		verifyBitstringStatusListCredential?: boolean
		verifyMatchingIssuers?: boolean
	}): Promise<{ verified: boolean; error?: Error; results?: Array<{ verified: boolean; status: boolean }> }>
}

// panva's oidc-provider (the single sign-on tests' identity provider) ships no types: the parts tests/support/oidc-idp.ts calls.
declare module 'oidc-provider' {
	import type { IncomingMessage, ServerResponse } from 'node:http'
	export default class Provider {
		constructor(issuer: string, configuration: Record<string, unknown>)
		Client: { prototype: { redirectUriAllowed(uri: string): boolean } }
		callback(): (req: IncomingMessage, res: ServerResponse) => void
		interactionFinished(
			req: IncomingMessage,
			res: ServerResponse,
			result: Record<string, unknown>,
			options?: { mergeWithLastSubmission?: boolean },
		): Promise<void>
	}
}

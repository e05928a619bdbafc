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

import { base64Key, open, seal } from '#app/platform/sealed.server.ts'

/**
 * Identity providers' client secrets at rest (decision 0069): sealed (app/platform/sealed.server.ts)
 * under SSO_ENCRYPTION_KEY, with the row's tenant and provider as additional data (a sealed value
 * copied onto another tenant's or provider's row does not open). The plain secret is never stored,
 * logged nor shown.
 */
export interface SealedFor {
	tenantId: string
	providerId: string
}

const aad = (to: SealedFor) => `identity_providers|${to.tenantId}|${to.providerId}`

export const sealSecret = (key: string, to: SealedFor, secret: string) =>
	seal(base64Key(key, 'SSO_ENCRYPTION_KEY'), secret, aad(to))

/** The secret, or null when the value was sealed under another key or for another row, or was altered. */
export const openSecret = (key: string, to: SealedFor, sealed: string) =>
	open(base64Key(key, 'SSO_ENCRYPTION_KEY'), sealed, aad(to))

import { randomBytes } from 'node:crypto'
import { derivedKey, open, seal, type SealingKey } from '#app/platform/sealed.server.ts'

/*
 * Webhook signing secrets (decision 0072). HMAC signing needs the secret itself, so it cannot be
 * stored hashed: it is sealed (app/platform/sealed.server.ts) under a key derived from AUTH_SECRET (HKDF, its own
 * label), bound to the tenant, so a database copy alone cannot sign (forge) deliveries to the
 * tenants' receivers, and a sealed secret copied into another tenant's row does not open. The
 * secret is the Standard Webhooks form, `whsec_` and 32 random bytes in base64, shown once.
 */

/** The key-encryption key of webhook secrets: AUTH_SECRET's, under the webhooks' own label. */
export const webhookKek = (authSecret: string) => derivedKey(authSecret, 'lms/webhooks', 'webhook secret encryption v1')

/** A new Standard Webhooks secret. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`

const bound = (tenantId: string) => `webhook|${tenantId}`

export const sealSecret = (kek: SealingKey, tenantId: string, secret: string) => seal(kek, secret, bound(tenantId))

/** The secret, or null when it does not open under this key (AUTH_SECRET changed, or another tenant's). */
export const openSecret = (kek: SealingKey, tenantId: string, sealed: string) => open(kek, sealed, bound(tenantId))

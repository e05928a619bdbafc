import type { AuditActor } from '#app/platform/audit.server.ts'
import { adminAudit } from '#app/platform/audit.server.ts'
import type { RequestContext } from '#app/context.ts'
import type { Tenant } from '#db/tenants.ts'
import {
	createEndpoint,
	findEndpoint,
	lastDeliveries,
	listEndpoints,
	replayDelivery,
	rotateEndpointSecret,
	setEndpointDisabled,
	type WebhookEndpoint,
} from '#db/webhooks.ts'
import { refusedUrl } from './webhook-address.server.ts'
import { newWebhookSecret, sealSecret, webhookKek } from './webhook-secrets.server.ts'

/*
 * A tenant's webhook endpoints as its admins manage them (decision 0072): add (the secret is shown
 * once and stored sealed), rotate with an overlap, disable and enable, replay one delivery. Every
 * change is audited with the endpoint's URL and events, never a secret.
 */

export interface WebhookScope extends AuditActor {
	ctx: Pick<RequestContext, 'db' | 'env'>
}

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATION_OVERLAP_HOURS = 24

const subject = (e: WebhookEndpoint) => ({ kind: 'webhook_endpoint', id: e.id, tenantId: e.tenant_id })

/** Why the URL may not be an endpoint (production: https only; never a private address literal), or null. */
export function endpointUrlRefusal(ctx: Pick<RequestContext, 'env'>, url: string) {
	return refusedUrl(url, {
		production: ctx.env.NODE_ENV === 'production',
		allowLoopback: ctx.env.WEBHOOK_ALLOW_LOOPBACK === 'true',
	})
}

/** The tenant's endpoints, each with its latest attempts. */
export async function webhookOverview(ctx: Pick<RequestContext, 'db'>, tenant: Tenant) {
	const endpoints = await listEndpoints(ctx.db, tenant.id)
	return Promise.all(
		endpoints.map(async (e) => ({
			id: e.id,
			url: e.url,
			events: e.events,
			disabledAt: e.disabled_at?.toISOString() ?? null,
			disabledReason: e.disabled_reason,
			failingSince: e.failing_since?.toISOString() ?? null,
			rotatingUntil:
				e.previous_secret_expires_at && e.previous_secret_expires_at > new Date()
					? e.previous_secret_expires_at.toISOString()
					: null,
			deliveries: (await lastDeliveries(ctx.db, tenant.id, e.id, 10)).map((d) => ({ ...d, at: d.at.toISOString() })),
		})),
	)
}

/** A new endpoint and its secret (to show once). */
export async function addEndpoint(scope: WebhookScope, tenant: Tenant, input: { url: string; events: string[] }) {
	const secret = newWebhookSecret()
	const kek = webhookKek(scope.ctx.env.AUTH_SECRET)
	const endpoint = await createEndpoint(
		scope.ctx.db,
		{
			tenantId: tenant.id,
			url: input.url,
			events: input.events,
			secretSealed: sealSecret(kek, tenant.id, secret),
			kekId: kek.id,
		},
		(row) => adminAudit(scope, 'webhook.endpoint_created', subject(row), { url: row.url, events: row.events }),
	)
	return { endpoint: endpoint!, secret }
}

/** A new secret (to show once); the old one signs too for ROTATION_OVERLAP_HOURS. Null when not the tenant's. */
export async function rotateSecret(scope: WebhookScope, tenant: Tenant, endpointId: string) {
	const secret = newWebhookSecret()
	const kek = webhookKek(scope.ctx.env.AUTH_SECRET)
	const overlapUntil = new Date(Date.now() + ROTATION_OVERLAP_HOURS * 3_600_000)
	const row = await rotateEndpointSecret(
		scope.ctx.db,
		{ tenantId: tenant.id, id: endpointId },
		{ secretSealed: sealSecret(kek, tenant.id, secret), kekId: kek.id, overlapUntil },
		(e) =>
			adminAudit(scope, 'webhook.secret_rotated', subject(e), { url: e.url, overlapUntil: overlapUntil.toISOString() }),
	)
	return row ? secret : null
}

/** Disables or enables the endpoint (nothing written when it already is); false when it is not the tenant's. */
export async function switchEndpoint(scope: WebhookScope, tenant: Tenant, endpointId: string, enable: boolean) {
	if (!(await findEndpoint(scope.ctx.db, tenant.id, endpointId))) return false
	await setEndpointDisabled(scope.ctx.db, { tenantId: tenant.id, id: endpointId }, !enable, (e) =>
		adminAudit(scope, enable ? 'webhook.endpoint_enabled' : 'webhook.endpoint_disabled', subject(e), { url: e.url }),
	)
	return true
}

/** One more attempt of an event at an enabled endpoint of the tenant that already had one; false otherwise. */
export async function replay(scope: WebhookScope, tenant: Tenant, endpointId: string, eventId: string) {
	const endpoint = await findEndpoint(scope.ctx.db, tenant.id, endpointId)
	if (!endpoint || endpoint.disabled_at) return false
	return replayDelivery(
		scope.ctx.db,
		tenant.id,
		endpoint.id,
		eventId,
		adminAudit(scope, 'webhook.delivery_replayed', subject(endpoint), { url: endpoint.url, eventId }),
	)
}

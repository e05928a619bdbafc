import { Webhook } from 'standardwebhooks'
import type { Env } from '#app/platform/env.server.ts'
import type { JobDeps } from '#app/platform/jobs.server.ts'
import { log } from '#app/platform/log.server.ts'
import { RefusedTarget } from '#app/platform/public-address.server.ts'
import type { Tx } from '#db/transaction.ts'
import {
	deliveryTarget,
	recordAttempt,
	type WebhookDeliverJob,
	type WebhookEndpoint,
	type WebhookEvent,
} from '#db/webhooks.ts'
import { checkTarget } from './webhook-address.server.ts'
import { openSecret, webhookKek } from './webhook-secrets.server.ts'
import { sendWebhook, type SendResult } from './webhook-send.server.ts'

/*
 * One attempt of one event at one endpoint (decision 0072), run by the job queue: the body built
 * from the stored event, signed per Standard Webhooks with the endpoint's secret (and, during a
 * rotation's overlap, the previous one too), sent to the address checked at this moment. The
 * attempt is recorded with what follows it (the next attempt's job, or the endpoint disabled and its
 * admins' mail) in one transaction. A failed delivery is not a failed job: the schedule is ours
 * (about a day), not the queue's; a job that dies mid-attempt (a killed process) is run again by
 * the queue with the same attempt number, so each event arrives at least once.
 */

export type WebhookEnv = Pick<
	Env,
	| 'AUTH_SECRET'
	| 'NODE_ENV'
	| 'WEBHOOK_RETRY_SCHEDULE_SECONDS'
	| 'WEBHOOK_DISABLE_AFTER_SECONDS'
	| 'WEBHOOK_TIMEOUT_MS'
	| 'WEBHOOK_ALLOW_LOOPBACK'
	| 'JOB_TIMEOUT_SECONDS'
>

export type WebhookDeps = Pick<JobDeps, 'db'> & { env: WebhookEnv }

/** The body of an event's deliveries: the same bytes on every attempt. */
function webhookBody(event: Pick<WebhookEvent, 'type' | 'created_at' | 'payload'>) {
	return JSON.stringify({ type: event.type, timestamp: event.created_at.toISOString(), data: event.payload })
}

/** The signature header: one `v1,…` per secret in use (the previous one until its overlap ends). */
function webhookSignature(
	env: Pick<WebhookEnv, 'AUTH_SECRET'>,
	endpoint: WebhookEndpoint,
	msgId: string,
	at: Date,
	body: string,
) {
	const kek = webhookKek(env.AUTH_SECRET)
	const sealed = [endpoint.secret_sealed]
	if (
		endpoint.previous_secret_sealed &&
		endpoint.previous_secret_expires_at &&
		endpoint.previous_secret_expires_at > at
	)
		sealed.push(endpoint.previous_secret_sealed)
	const secrets = sealed.map((s) => openSecret(kek, endpoint.tenant_id, s)).filter((s): s is string => s !== null)
	if (secrets.length === 0) return null
	return secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(' ')
}

/** The retry schedule in seconds: the wait after attempt n is its n-th entry; none after the last. */
function retrySchedule(env: Pick<WebhookEnv, 'WEBHOOK_RETRY_SCHEDULE_SECONDS'>) {
	return env.WEBHOOK_RETRY_SCHEDULE_SECONDS.split(',').map(Number)
}

export async function deliverWebhook(
	deps: WebhookDeps,
	job: WebhookDeliverJob,
	onDisabled: (tx: Tx, endpoint: WebhookEndpoint) => Generator<unknown, unknown, unknown>,
) {
	const found = await deliveryTarget(deps.db, job.eventId, job.endpointId)
	if (!found) return 'the event or the endpoint is gone'
	const { event, endpoint } = found
	if (endpoint.disabled_at) return 'the endpoint is disabled'
	const now = new Date()
	const body = webhookBody(event)
	const signature = webhookSignature(deps.env, endpoint, event.id, now, body)
	const result = signature ? await attempt(deps.env, endpoint.url, event.id, now, body, signature) : unsigned()
	const waits = retrySchedule(deps.env)
	const wait = job.replay ? undefined : waits[job.attempt - 1]
	const outcome = await recordAttempt(
		deps.db,
		{ tenantId: event.tenant_id, endpointId: endpoint.id, eventId: event.id, attempt: job.attempt, ...result },
		{
			retryAt: wait === undefined ? null : new Date(Date.now() + wait * 1000),
			disableBefore: new Date(now.getTime() - deps.env.WEBHOOK_DISABLE_AFTER_SECONDS * 1000),
			onDisabled: (tx) => onDisabled(tx, endpoint),
		},
	)
	if (outcome.disabled) log.warn('webhook/endpoint-disabled', { tenantId: event.tenant_id, endpointId: endpoint.id })
	const status = result.ok ? 'delivered' : `failed (${result.statusCode ?? result.error})`
	return `${event.type} ${event.id} attempt ${job.attempt}: ${status}${outcome.recorded ? '' : ', already recorded'}`
}

function unsigned(): SendResult {
	return {
		statusCode: null,
		durationMs: 0,
		error: 'the secret does not open (AUTH_SECRET changed): rotate it',
		ok: false,
	}
}

async function attempt(env: WebhookEnv, url: string, msgId: string, at: Date, body: string, signature: string) {
	const options = { production: env.NODE_ENV === 'production', allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true' }
	try {
		const target = await checkTarget(url, options)
		const headers = {
			'content-type': 'application/json',
			'user-agent': 'lms-webhooks/1',
			'webhook-id': msgId,
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': signature,
		}
		const timeoutMs = Math.min(env.WEBHOOK_TIMEOUT_MS, env.JOB_TIMEOUT_SECONDS * 800)
		return await sendWebhook(target, headers, body, timeoutMs)
	} catch (error) {
		const message = error instanceof RefusedTarget ? error.message : `lookup failed: ${(error as Error).message}`
		return { statusCode: null, durationMs: 0, error: message, ok: false }
	}
}

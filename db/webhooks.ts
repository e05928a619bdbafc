import { randomBytes } from 'node:crypto'
import { and, desc, eq, inArray, isNotNull, isNull, lt, max, or, sql } from 'drizzle-orm'
import { auditSteps, type AuditInput } from './audit.ts'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import { enqueueJobSteps } from './jobs.ts'
import type { WebhookEventType } from './schema/values.ts'
import { inTransaction, step, type Tx } from './transaction.ts'

/*
 * Outgoing webhooks' storage (decision 0072): endpoints, the events outbox and delivery attempts.
 * An event is written by `webhookEventSteps` inside the transaction of the change it reports, with
 * one delivery job per enabled endpoint that asked for its type: the change, its event and their
 * jobs are stored together or not at all.
 */

export type WebhookEndpoint = Database['t']['webhook_endpoints']['$inferSelect']
export type WebhookEvent = Database['t']['webhook_events']['$inferSelect']

/** The job that delivers one event to one endpoint (its handler: app/integrations/job-handlers.server.ts). */
const WEBHOOK_DELIVER_JOB = 'webhook.deliver'

export interface WebhookDeliverJob {
	eventId: string
	endpointId: string
	/** The attempt's number for this event and endpoint, from 1. */
	attempt: number
	/** A replay an admin asked for: one attempt, no retries. */
	replay?: boolean
}

/** A Standard Webhooks message id (`webhook-id`): `msg_` and 128 random bits. */
const messageId = () => `msg_${randomBytes(16).toString('base64url')}`

/**
 * Writes one event of the tenant and a delivery job for each of its enabled endpoints that
 * subscribed to the type: a step of the transaction of the change it reports.
 */
export function* webhookEventSteps(tx: Tx, tenantId: string, type: WebhookEventType, data: Record<string, unknown>) {
	const { webhook_events: ev, webhook_endpoints: ep } = tx.t
	const id = messageId()
	yield* step(tx.orm.insert(ev).values({ id, tenant_id: tenantId, type, payload: data }).returning({ id: ev.id }))
	const endpoints = yield* step(
		tx.orm
			.select({ id: ep.id, events: ep.events })
			.from(ep)
			.where(and(eq(ep.tenant_id, tenantId), isNull(ep.disabled_at))),
	)
	for (const endpoint of endpoints) {
		if (!endpoint.events.includes(type)) continue
		const job: WebhookDeliverJob = { eventId: id, endpointId: endpoint.id, attempt: 1 }
		yield* enqueueJobSteps(tx, WEBHOOK_DELIVER_JOB, { ...job })
	}
	return id
}

export interface NewEndpoint {
	tenantId: string
	url: string
	events: string[]
	secretSealed: string
	kekId: string
}

/** Runs one write of an endpoint and, when it wrote a row, its audit row: together or not at all. */
function audited<T>(db: Database, audit: (row: T) => AuditInput, write: (tx: Tx) => PromiseLike<T[]>) {
	return inTransaction(db, function* (tx) {
		const [row] = yield* step(write(tx))
		if (row) yield* auditSteps(tx, audit(row))
		return row as T | undefined
	})
}

export function createEndpoint(db: Database, input: NewEndpoint, audit: (row: WebhookEndpoint) => AuditInput) {
	return audited(db, audit, (tx) =>
		tx.orm
			.insert(tx.t.webhook_endpoints)
			.values({
				id: newId(),
				tenant_id: input.tenantId,
				url: input.url,
				events: input.events,
				secret_sealed: input.secretSealed,
				kek_id: input.kekId,
			})
			.returning(),
	)
}

export function listEndpoints(db: Database, tenantId: string) {
	const ep = db.t.webhook_endpoints
	return db.orm.select().from(ep).where(eq(ep.tenant_id, tenantId)).orderBy(ep.created_at, ep.id)
}

export async function findEndpoint(db: Pick<Database, 'orm' | 't'>, tenantId: string, id: string) {
	const ep = db.t.webhook_endpoints
	const [row] = await db.orm
		.select()
		.from(ep)
		.where(and(eq(ep.tenant_id, tenantId), eq(ep.id, id)))
		.limit(1)
	return row
}

/** A new secret; the current one keeps signing beside it until `overlapUntil`. Undefined when not the tenant's. */
export function rotateEndpointSecret(
	db: Database,
	target: { tenantId: string; id: string },
	next: { secretSealed: string; kekId: string; overlapUntil: Date },
	audit: (row: WebhookEndpoint) => AuditInput,
) {
	return audited(db, audit, (tx) => {
		const ep = tx.t.webhook_endpoints
		return tx.orm
			.update(ep)
			.set({
				previous_secret_sealed: sql`${ep.secret_sealed}`,
				previous_secret_expires_at: next.overlapUntil,
				secret_sealed: next.secretSealed,
				kek_id: next.kekId,
				updated_at: new Date(),
			})
			.where(and(eq(ep.tenant_id, target.tenantId), eq(ep.id, target.id)))
			.returning()
	})
}

/**
 * Disables (by an admin) or enables the endpoint, only when it is not already so (a repeated press
 * writes nothing and no audit row); an enabled endpoint starts with a clean record.
 */
export function setEndpointDisabled(
	db: Database,
	target: { tenantId: string; id: string },
	disable: boolean,
	audit: (row: WebhookEndpoint) => AuditInput,
) {
	return audited(db, audit, (tx) => {
		const ep = tx.t.webhook_endpoints
		const now = new Date()
		const mine = and(eq(ep.tenant_id, target.tenantId), eq(ep.id, target.id))
		return tx.orm
			.update(ep)
			.set(
				disable
					? { disabled_at: now, disabled_reason: 'admin', updated_at: now }
					: { disabled_at: null, disabled_reason: null, failing_since: null, updated_at: now },
			)
			.where(and(mine, disable ? isNull(ep.disabled_at) : isNotNull(ep.disabled_at)))
			.returning()
	})
}

/** The endpoint's latest attempts, newest first, with their event's type. */
export function lastDeliveries(db: Database, tenantId: string, endpointId: string, limit = 20) {
	const { webhook_deliveries: d, webhook_events: ev } = db.t
	return db.orm
		.select({
			id: d.id,
			eventId: d.event_id,
			type: ev.type,
			attempt: d.attempt,
			statusCode: d.status_code,
			durationMs: d.duration_ms,
			error: d.error,
			at: d.at,
		})
		.from(d)
		.innerJoin(ev, eq(ev.id, d.event_id))
		.where(and(eq(d.tenant_id, tenantId), eq(d.endpoint_id, endpointId)))
		.orderBy(desc(d.at), desc(d.attempt))
		.limit(limit)
}

/** One admin-asked replay of a delivered (or failed) event: the next attempt, one try. */
export function replayDelivery(db: Database, tenantId: string, endpointId: string, eventId: string, audit: AuditInput) {
	return inTransaction(db, function* (tx) {
		const d = tx.t.webhook_deliveries
		const [last] = yield* step(
			tx.orm
				.select({ attempt: max(d.attempt) })
				.from(d)
				.where(and(eq(d.tenant_id, tenantId), eq(d.endpoint_id, endpointId), eq(d.event_id, eventId))),
		)
		if (!last?.attempt) return false
		const job: WebhookDeliverJob = { eventId, endpointId, attempt: last.attempt + 1, replay: true }
		yield* enqueueJobSteps(tx, WEBHOOK_DELIVER_JOB, { ...job })
		yield* auditSteps(tx, audit)
		return true
	})
}

export interface AttemptRecord {
	tenantId: string
	endpointId: string
	eventId: string
	attempt: number
	statusCode: number | null
	durationMs: number
	error: string | null
	ok: boolean
}

/**
 * Records one attempt and what follows it, in one transaction: on success the endpoint's failing
 * time is cleared; on failure it is set (if not already) and, when it is older than `disableBefore`,
 * the endpoint is disabled (answered `disabled: true` to the one attempt that did it), and the next
 * attempt's job is written for `retryAt` (null: none). A second run of the same attempt (its job
 * retried after a crash) records nothing and schedules nothing: answered `recorded: false`.
 */
export function recordAttempt(
	db: Database,
	r: AttemptRecord,
	next: { retryAt: Date | null; disableBefore: Date; onDisabled: (tx: Tx) => Generator<unknown, unknown, unknown> },
) {
	return inTransaction(db, function* (tx) {
		const { webhook_deliveries: d, webhook_endpoints: ep } = tx.t
		const now = new Date()
		const [row] = yield* step(
			tx.orm
				.insert(d)
				.values({
					id: newId(),
					tenant_id: r.tenantId,
					endpoint_id: r.endpointId,
					event_id: r.eventId,
					attempt: r.attempt,
					status_code: r.statusCode,
					duration_ms: r.durationMs,
					error: r.error,
					at: now,
				})
				.onConflictDoNothing({ target: [d.endpoint_id, d.event_id, d.attempt] })
				.returning({ id: d.id }),
		)
		if (!row) return { recorded: false, disabled: false }
		const mine = and(eq(ep.tenant_id, r.tenantId), eq(ep.id, r.endpointId))
		if (r.ok) {
			yield* step(tx.orm.update(ep).set({ failing_since: null }).where(mine).returning({ id: ep.id }))
			return { recorded: true, disabled: false }
		}
		yield* step(
			tx.orm
				.update(ep)
				.set({ failing_since: now })
				.where(and(mine, isNull(ep.failing_since)))
				.returning({ id: ep.id }),
		)
		const [disabled] = yield* step(
			tx.orm
				.update(ep)
				.set({ disabled_at: now, disabled_reason: 'failing', updated_at: now })
				.where(and(mine, isNull(ep.disabled_at), lt(ep.failing_since, next.disableBefore)))
				.returning({ id: ep.id }),
		)
		if (disabled) yield* next.onDisabled(tx) as Generator<never, unknown, unknown>
		else if (next.retryAt) {
			const job: WebhookDeliverJob = { eventId: r.eventId, endpointId: r.endpointId, attempt: r.attempt + 1 }
			yield* enqueueJobSteps(tx, WEBHOOK_DELIVER_JOB, { ...job }, next.retryAt)
		}
		return { recorded: true, disabled: Boolean(disabled) }
	})
}

/** An event and the endpoint to deliver it to, both of one tenant; undefined when either is gone. */
export async function deliveryTarget(db: Database, eventId: string, endpointId: string) {
	const { webhook_events: ev, webhook_endpoints: ep } = db.t
	const [row] = await db.orm
		.select({ event: ev, endpoint: ep })
		.from(ev)
		.innerJoin(ep, and(eq(ep.tenant_id, ev.tenant_id), eq(ep.id, endpointId)))
		.where(eq(ev.id, eventId))
		.limit(1)
	return row
}

/** The tenant's active admins: who is told of a disabled endpoint. */
export function tenantAdmins(db: Database, tenantId: string) {
	const u = db.t.users
	return db.orm
		.select({ id: u.id, email: u.email, locale: u.locale })
		.from(u)
		.where(and(eq(u.tenant_id, tenantId), eq(u.role, 'tenant_admin'), isNull(u.deactivated_at)))
}

/**
 * Removes the tenant's webhook events whose payload matches one of the `LIKE` patterns (lower case,
 * `\` escapes) and their delivery records: on the erasure of the person they name (decision 0044).
 * Their delivery jobs still queued find the event gone and send nothing.
 */
export function* forgetWebhookEventsSteps(tx: Tx, tenantId: string, patterns: string[]) {
	const { webhook_events: ev, webhook_deliveries: d } = tx.t
	if (!patterns.length) return
	const payload = tx.dialect === 'pg' ? sql`lower(${ev.payload}::text)` : sql`lower(${ev.payload})`
	const matches = or(...patterns.map((p) => sql`${payload} like ${p} escape '\\'`))
	const events = yield* step(
		tx.orm
			.select({ id: ev.id })
			.from(ev)
			.where(and(eq(ev.tenant_id, tenantId), matches)),
	)
	const ids = events.map((e) => e.id)
	if (!ids.length) return
	yield* step(tx.orm.delete(d).where(inArray(d.event_id, ids)).returning({ id: d.id }))
	yield* step(tx.orm.delete(ev).where(inArray(ev.id, ids)).returning({ id: ev.id }))
}

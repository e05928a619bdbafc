import { and, asc, desc, eq, gte, isNotNull, isNull, sql } from 'drizzle-orm'
import { auditSteps, type AuditInput } from './audit.ts'
import { preparedFor, type Database } from './client.ts'
import { newId } from './ids.ts'
import { inTransaction, step, type Tx } from './transaction.ts'
import { inScope } from './learning.ts'
import { webhookEventSteps } from './webhooks.ts'

// Certificates and the tenants' signing keys (decision 0038). Every read names the tenant.

export type SigningKey = Database['t']['signing_keys']['$inferSelect']
export type Certificate = Database['t']['certificates']['$inferSelect']

/** Every key the tenant ever had, oldest first: its DID document lists them all. */
export function tenantSigningKeys(db: Database, tenantId: string) {
	const k = db.t.signing_keys
	return db.orm.select().from(k).where(eq(k.tenant_id, tenantId)).orderBy(asc(k.version))
}

export async function currentSigningKey(db: Database, tenantId: string): Promise<SigningKey | undefined> {
	const k = db.t.signing_keys
	const [row] = await db.orm
		.select()
		.from(k)
		.where(and(eq(k.tenant_id, tenantId), isNull(k.retired_at)))
		.limit(1)
	return row
}

export interface NewSigningKey {
	tenantId: string
	publicKeyMultibase: string
	/** Seals the secret half for the row's version (the version is bound into the seal). */
	seal: (version: number) => string
	kekId: string
}

/**
 * Makes `key` the tenant's current key: retires the current one (`replacing`'s id, when the caller
 * read one) and adds the new one as the next version, in one transaction. When another process got
 * there first (the key it read is already retired, or another current key exists), nothing is
 * written and undefined comes back: read the current key again.
 */
export function addSigningKey(db: Database, key: NewSigningKey, replacing: string | null, at = new Date()) {
	const k = db.t.signing_keys
	return inTransaction(db, function* (tx) {
		if (replacing) {
			const [retired] = yield* step(
				tx.orm
					.update(k)
					.set({ retired_at: at })
					.where(and(eq(k.id, replacing), eq(k.tenant_id, key.tenantId), isNull(k.retired_at)))
					.returning({ id: k.id }),
			)
			if (!retired) return undefined
		}
		const [last] = yield* step(
			tx.orm
				.select({ version: sql<number>`coalesce(max(${k.version}), 0)` })
				.from(k)
				.where(eq(k.tenant_id, key.tenantId)),
		)
		const version = Number(last?.version ?? 0) + 1
		const [row] = yield* step(
			tx.orm
				.insert(k)
				.values({
					id: newId(),
					tenant_id: key.tenantId,
					version,
					public_key_multibase: key.publicKeyMultibase,
					secret_key_sealed: key.seal(version),
					kek_id: key.kekId,
					created_at: at,
				})
				.onConflictDoNothing()
				.returning(),
		)
		return row
	})
}

export interface CertificateRow {
	tenantId: string
	userId: string
	courseSlug: string
	publicId: string
	recipientName: string
	courseTitle: string
	credentialJson: string
	keyVersion: number
	statusList: number
	statusIndex: number
	issuedAt: Date
}

/**
 * Stores an issued certificate unless the learner already has a live one for the course (or, rarely,
 * its status index was taken meanwhile): a unique key refuses it and undefined comes back. A step,
 * so that it can join the transaction of the write that earned it.
 */
export function* insertCertificateSteps(tx: Tx, c: CertificateRow) {
	const [row] = yield* step(
		tx.orm
			.insert(tx.t.certificates)
			.values({
				id: newId(),
				tenant_id: c.tenantId,
				user_id: c.userId,
				course_slug: c.courseSlug,
				public_id: c.publicId,
				recipient_name: c.recipientName,
				course_title: c.courseTitle,
				credential_json: c.credentialJson,
				key_version: c.keyVersion,
				status_list: c.statusList,
				status_index: c.statusIndex,
				issued_at: c.issuedAt,
			})
			.onConflictDoNothing()
			.returning(),
	)
	const issued = row as Certificate | undefined
	if (issued) yield* webhookEventSteps(tx, issued.tenant_id, 'certificate.issued', certificateEvent(issued))
	return issued
}

/** A certificate's webhook payload (decision 0072): ids, course, times; the credential is fetched by its id. */
function certificateEvent(c: Certificate) {
	return {
		certificate: {
			id: c.id,
			publicId: c.public_id,
			userId: c.user_id,
			courseSlug: c.course_slug,
			courseTitle: c.course_title,
			issuedAt: c.issued_at.toISOString(),
			revokedAt: c.revoked_at?.toISOString() ?? null,
		},
	}
}

export async function liveCertificate(db: Database, tenantId: string, userId: string, courseSlug: string) {
	const c = db.t.certificates
	const [row] = await db.orm
		.select()
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.user_id, userId), eq(c.course_slug, courseSlug), isNull(c.revoked_at)))
		.limit(1)
	return row
}

/**
 * A certificate of the course issued to the learner at or after `since`, live or revoked, read in the
 * caller's transaction: the job owed a certificate by a pass asks it just before storing one, so a
 * revocation that lands between its first look and its write is seen (decision 0059).
 */
export function* issuedSinceSteps(tx: Tx, tenantId: string, userId: string, courseSlug: string, since: Date) {
	const c = tx.t.certificates
	const [row] = yield* step(
		tx.orm
			.select()
			.from(c)
			.where(
				and(eq(c.tenant_id, tenantId), eq(c.user_id, userId), eq(c.course_slug, courseSlug), gte(c.issued_at, since)),
			)
			.limit(1),
	)
	return row as Certificate | undefined
}

export async function certificateByPublicId(db: Database, tenantId: string, publicId: string) {
	const c = db.t.certificates
	const [row] = await db.orm
		.select()
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.public_id, publicId)))
		.limit(1)
	return row
}

/** A learner's certificates, live ones first, newest first. */
export function userCertificates(db: Database, tenantId: string, userId: string) {
	return certificatesOf(db).execute({ tenantId, userId })
}
// Prepared: the dashboard reads them on every view (decision 0052).
const certificatesOf = preparedFor((db) => {
	const c = db.t.certificates
	return db.orm
		.select()
		.from(c)
		.where(inScope(c))
		.orderBy(sql`${c.revoked_at} IS NOT NULL`, desc(c.issued_at))
		.prepare('certificates_of')
})

/** A course's certificates with their learners, newest first. */
export function courseCertificates(db: Database, tenantId: string, courseSlug: string, limit = 500) {
	const c = db.t.certificates
	const u = db.t.users
	return db.orm
		.select({
			id: c.id,
			publicId: c.public_id,
			userId: c.user_id,
			recipientName: c.recipient_name,
			currentName: u.name,
			email: u.email,
			issuedAt: c.issued_at,
			revokedAt: c.revoked_at,
			revokedReason: c.revoked_reason,
		})
		.from(c)
		.innerJoin(u, eq(u.id, c.user_id))
		.where(and(eq(c.tenant_id, tenantId), eq(c.course_slug, courseSlug)))
		.orderBy(desc(c.issued_at))
		.limit(limit)
}

export async function courseCertificate(db: Database, tenantId: string, courseSlug: string, id: string) {
	const c = db.t.certificates
	const [row] = await db.orm
		.select()
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.course_slug, courseSlug), eq(c.id, id)))
		.limit(1)
	return row
}

/**
 * Revokes a live certificate: its revocation bit (the status list is read from these rows) and the
 * audit row are written together. Undefined when it is not live (already revoked, or not this
 * tenant's): nothing is written.
 */
export function* revokeCertificateSteps(
	tx: Tx,
	target: { tenantId: string; id: string },
	reason: string,
	by: string | null,
	audit: AuditInput,
	at = new Date(),
) {
	const c = tx.t.certificates
	const [row] = yield* step(
		tx.orm
			.update(c)
			.set({ revoked_at: at, revoked_reason: reason, revoked_by: by })
			.where(and(eq(c.tenant_id, target.tenantId), eq(c.id, target.id), isNull(c.revoked_at)))
			.returning(),
	)
	if (!row) return undefined
	yield* webhookEventSteps(tx, row.tenant_id, 'certificate.revoked', { ...certificateEvent(row), reason })
	yield* auditSteps(tx, audit)
	return row
}

/** The revoked indexes of one of the tenant's status lists: the bits its published list sets. */
export async function revokedIndexes(db: Database, tenantId: string, list: number) {
	const c = db.t.certificates
	const rows = await db.orm
		.select({ index: c.status_index })
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.status_list, list), isNotNull(c.revoked_at)))
	return rows.map((r) => r.index)
}

/** The tenant's newest status list and how many indexes it holds (to open the next one when it fills). */
export async function newestStatusList(db: Database, tenantId: string) {
	const c = db.t.certificates
	const [newest] = await db.orm
		.select({ list: sql<number>`coalesce(max(${c.status_list}), 1)` })
		.from(c)
		.where(eq(c.tenant_id, tenantId))
	const list = Number(newest?.list ?? 1)
	const [count] = await db.orm
		.select({ n: sql<number>`count(*)` })
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.status_list, list)))
	return { list, used: Number(count?.n ?? 0) }
}

/** Whether the tenant has a status list of that number (one certificate in it is enough). */
export async function statusListExists(db: Database, tenantId: string, list: number) {
	const c = db.t.certificates
	const [row] = await db.orm
		.select({ id: c.id })
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.status_list, list)))
		.limit(1)
	return Boolean(row)
}

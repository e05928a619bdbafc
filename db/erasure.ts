import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import { step, type Tx } from './transaction.ts'
import { noPassword } from './users.ts'
import { forgetJobsSteps } from './jobs.ts'
import { forgetWebhookEventsSteps } from './webhooks.ts'
import { personMatcher, scrubJson } from './erased-values.ts'
import { erasedEmail, type Person } from './data-rights.ts'

/*
 * The right to erasure (docs/decisions/0044-data-rights.md): what an erasure removes of one person of
 * one tenant, and what it strips from the rows it keeps, as steps of one transaction. The archive's
 * reading and the erased address are in db/data-rights.ts.
 */

/** What an erasure removes from the rows it keeps: the values that named the person. */
export interface ErasedValues {
	email: string
	name: string
}

/**
 * The person as an erasure finds them, read in its transaction: only while the actor may still erase
 * them (an active tenant admin of this tenant or a super admin, not themselves) and they are a
 * tenant account not erased before. Undefined otherwise.
 */
function* erasableSteps(tx: Tx, who: Person, actorId: string) {
	const { users: u } = tx.t
	const actor = sql`exists (select 1 from ${u} as actor where actor.id = ${actorId} and actor.deactivated_at is null
		and ((actor.role = 'tenant_admin' and actor.tenant_id = ${who.tenantId}) or (actor.role = 'super_admin' and actor.tenant_id is null)))`
	const rows = yield* step(
		tx.orm
			.select({ email: u.email, name: u.name })
			.from(u)
			.where(
				and(
					eq(u.id, who.userId),
					eq(u.tenant_id, who.tenantId),
					sql`${u.role} <> 'super_admin'`,
					sql`${u.id} <> ${actorId}`,
					sql`${u.email} not like '%@erased.invalid'`,
					actor,
				),
			),
	)
	return rows[0]
}

/** Replaces the person's address and name; only while they are still as read (a concurrent erasure finds nothing). */
function* replaceIdentitySteps(tx: Tx, who: Person, was: ErasedValues, now: Date) {
	const u = tx.t.users
	const rows = yield* step(
		tx.orm
			.update(u)
			.set({
				email: erasedEmail(who.userId),
				name: '',
				password_hash: noPassword(tx) as string,
				email_verified_at: null,
				deactivated_at: now,
				updated_at: now,
				token_version: sql`${u.token_version} + 1`,
			})
			.where(and(eq(u.id, who.userId), eq(u.tenant_id, who.tenantId), eq(u.email, was.email)))
			.returning({ id: u.id }),
	)
	return rows.length === 1
}

/** Sessions ended, tokens and sign-in identities gone, staff rights and notices withdrawn. */
function* endAccessSteps(tx: Tx, who: Person, now: Date) {
	const t = tx.t
	yield* step(
		tx.orm
			.update(t.sessions)
			.set({ revoked_at: now })
			.where(and(eq(t.sessions.user_id, who.userId), isNull(t.sessions.revoked_at)))
			.returning({ id: t.sessions.id }),
	)
	yield* step(
		tx.orm
			.delete(t.verification_tokens)
			.where(eq(t.verification_tokens.user_id, who.userId))
			.returning({ id: t.verification_tokens.id }),
	)
	yield* step(
		tx.orm
			.delete(t.oauth_accounts)
			.where(and(eq(t.oauth_accounts.tenant_id, who.tenantId), eq(t.oauth_accounts.user_id, who.userId)))
			.returning({ id: t.oauth_accounts.id }),
	)
	// The private calendar feed opens no more; settings and opt-outs of an address that is gone go too,
	// and the identity provider's id and groups of them (SCIM, decision 0070).
	for (const table of [t.calendar_feeds, t.user_settings, t.reminder_opt_outs, t.scim_users, t.scim_group_members]) {
		yield* step(
			tx.orm
				.delete(table as typeof t.calendar_feeds)
				.where(and(eq(table.tenant_id, who.tenantId), eq(table.user_id, who.userId)))
				.returning({ user_id: table.user_id }),
		)
	}
	const c = t.course_admin_assignments
	yield* step(
		tx.orm
			.delete(c)
			.where(and(eq(c.tenant_id, who.tenantId), eq(c.user_id, who.userId)))
			.returning({ id: c.id }),
	)
	const w = t.submission_watchers
	yield* step(
		tx.orm
			.delete(w)
			.where(and(eq(w.tenant_id, who.tenantId), eq(w.user_id, who.userId)))
			.returning({ user_id: w.user_id }),
	)
}

/**
 * The learning record stripped of what the person wrote or was told: hand-in texts, links, feedback
 * and files go, second chances (staff's reasons about them) go; enrollments, progress, attempts,
 * scores and results stay, under an id that no longer names anyone, so course statistics hold.
 * Answers the ids of the deleted files (their bodies go with the rows in the database store).
 */
function* stripLearningSteps(tx: Tx, who: Person) {
	const { assignment_submissions: a, submission_files: f, second_chances: s } = tx.t
	yield* step(
		tx.orm
			.update(a)
			.set({ text_answer: null, link_url: null, feedback: null })
			.where(and(eq(a.tenant_id, who.tenantId), eq(a.user_id, who.userId)))
			.returning({ id: a.id }),
	)
	const files = yield* step(
		tx.orm
			.delete(f)
			.where(and(eq(f.tenant_id, who.tenantId), eq(f.user_id, who.userId)))
			.returning({ id: f.id }),
	)
	yield* step(
		tx.orm
			.delete(s)
			.where(and(eq(s.tenant_id, who.tenantId), eq(s.user_id, who.userId)))
			.returning({ id: s.id }),
	)
	return files.map((r) => r.id)
}

/**
 * Certificates: a live one is revoked (its status-list bit set, so a copy anywhere reads revoked);
 * every one keeps its row (its status index is never reused) without the name, and its signed
 * credential (which names the person) is replaced by the two fields its public page reads.
 */
function* stripCertificatesSteps(tx: Tx, who: Person, actorId: string, now: Date) {
	const c = tx.t.certificates
	const mine = and(eq(c.tenant_id, who.tenantId), eq(c.user_id, who.userId))
	const revoked = yield* step(
		tx.orm
			.update(c)
			.set({ revoked_at: now, revoked_reason: 'erased', revoked_by: actorId })
			.where(and(mine, isNull(c.revoked_at)))
			.returning({ id: c.id }),
	)
	const rows = yield* step(tx.orm.select({ id: c.id, credential_json: c.credential_json }).from(c).where(mine))
	for (const row of rows)
		yield* step(
			tx.orm
				.update(c)
				.set({ recipient_name: '', credential_json: unsignedRemains(row.credential_json) })
				.where(and(mine, eq(c.id, row.id)))
				.returning({ id: c.id }),
		)
	return revoked.map((r) => r.id)
}

/** What a certificate's public page reads of its credential (view.server.ts), and nothing about its subject. */
function unsignedRemains(credentialJson: string) {
	try {
		const vc = JSON.parse(credentialJson) as { id?: unknown; issuer?: { name?: unknown } }
		return JSON.stringify({ id: String(vc.id ?? ''), issuer: { name: String(vc.issuer?.name ?? '') }, erased: true })
	} catch {
		return JSON.stringify({ id: '', issuer: { name: '' }, erased: true })
	}
}

/**
 * Invitations addressed to the person: pending ones withdrawn (deleted, with the courses and name
 * they carried), accepted ones kept for the inviter's record under the placeholder address and
 * without the name the admin's list gave.
 */
function* stripInvitationsSteps(tx: Tx, who: Person, was: ErasedValues) {
	const { invitations: i, invitation_names: n } = tx.t
	const toThem = and(eq(i.tenant_id, who.tenantId), eq(sql`lower(${i.email})`, was.email.toLowerCase()))
	const withdrawn = yield* step(
		tx.orm
			.delete(i)
			.where(and(toThem, isNull(i.accepted_at)))
			.returning({ id: i.id }),
	)
	const kept = yield* step(tx.orm.select({ id: i.id }).from(i).where(toThem))
	if (kept.length) {
		const ids = kept.map((r) => r.id)
		yield* step(
			tx.orm
				.delete(n)
				.where(and(eq(n.tenant_id, who.tenantId), inArray(n.invitation_id, ids)))
				.returning({ id: n.invitation_id }),
		)
		yield* step(
			tx.orm
				.update(i)
				.set({ email: erasedEmail(who.userId) })
				.where(and(eq(i.tenant_id, who.tenantId), inArray(i.id, ids)))
				.returning({ id: i.id }),
		)
	}
	return withdrawn.length
}

/**
 * `LIKE` pattern for a value inside a job's JSON payload, its wildcards escaped: only for the
 * address and the id, which are ASCII (the address field accepts no other), so lower() is exact.
 */
function containsPattern(value: string) {
	const json = JSON.stringify(value.toLowerCase()).slice(1, -1)
	return `%${json.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Names the person had before (a name change's audit row keeps both), so that all of them go. */
function* formerNamesSteps(tx: Tx, who: Person) {
	const a = tx.t.audit_log
	const rows = yield* step(
		tx.orm
			.select({ metadata: a.metadata })
			.from(a)
			.where(and(eq(a.tenant_id, who.tenantId), eq(a.target_id, who.userId), eq(a.action, 'account.name.changed'))),
	)
	return rows.flatMap((r) => [r.metadata.from, r.metadata.to]).filter((v): v is string => typeof v === 'string')
}

/** Audit rows read per query while the tenant's are scanned. */
const AUDIT_PAGE = 500

/**
 * Audit rows are kept (decision 0044) without personal values: every row of the tenant whose
 * metadata holds the person's address or one of their names, in any spelling (decision 0055), has
 * those strings replaced. The rows are read page by page and matched in JavaScript: no SQL
 * lower()/LIKE chooses them, as SQLite's fold only A to Z. Ids stay: they name no one once the users
 * row is a placeholder.
 */
function* scrubAuditSteps(tx: Tx, who: Person, was: ErasedValues) {
	const a = tx.t.audit_log
	const matcher = personMatcher([was.email, was.name, ...(yield* formerNamesSteps(tx, who))])
	for (let after = ''; ;) {
		const rows = yield* step(
			tx.orm
				.select({ id: a.id, metadata: a.metadata })
				.from(a)
				.where(and(eq(a.tenant_id, who.tenantId), gt(a.id, after)))
				.orderBy(a.id)
				.limit(AUDIT_PAGE),
		)
		for (const row of rows) {
			const metadata = scrubJson(row.metadata, matcher) as Record<string, unknown>
			if (JSON.stringify(metadata) !== JSON.stringify(row.metadata))
				yield* step(tx.orm.update(a).set({ metadata }).where(eq(a.id, row.id)).returning({ id: a.id }))
		}
		if (rows.length < AUDIT_PAGE) break
		after = rows[rows.length - 1]!.id
	}
	// Staff's reasons for moving the person's due dates (decision 0045) are free text about them too.
	const d = tx.t.due_extensions
	const extensions = yield* step(
		tx.orm
			.select({ id: d.id, reason: d.reason })
			.from(d)
			.where(and(eq(d.tenant_id, who.tenantId), eq(d.user_id, who.userId))),
	)
	for (const row of extensions) {
		const reason = matcher.replace(row.reason)
		if (reason !== row.reason)
			yield* step(tx.orm.update(d).set({ reason }).where(eq(d.id, row.id)).returning({ id: d.id }))
	}
}

/**
 * The erasure itself, as steps of one transaction (the caller adds its audit row): undefined when
 * the actor may not (or no longer) erase this person. Answers the removed files' ids, for the file
 * store, and counts for the audit row.
 */
export function* erasePersonSteps(tx: Tx, who: Person, actorId: string, now = new Date()) {
	const was = yield* erasableSteps(tx, who, actorId)
	if (!was) return undefined
	// The audit scrub reads the old values first: the users row is about to lose them.
	yield* scrubAuditSteps(tx, who, was)
	if (!(yield* replaceIdentitySteps(tx, who, was, now))) return undefined
	yield* endAccessSteps(tx, who, now)
	const files = yield* stripLearningSteps(tx, who)
	const certificates = yield* stripCertificatesSteps(tx, who, actorId, now)
	const invitations = yield* stripInvitationsSteps(tx, who, was)
	// A delivered mail's job row is the last copy of the address in the queue's tables.
	yield* forgetJobsSteps(tx, [containsPattern(was.email), containsPattern(who.userId)])
	// So is an outgoing webhook's event about them (decision 0072), this erasure's own included.
	yield* forgetWebhookEventsSteps(tx, who.tenantId, [containsPattern(was.email), containsPattern(who.userId)])
	return { files, certificates, invitations }
}

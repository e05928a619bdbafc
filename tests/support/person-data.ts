import { getTableColumns, sql } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { newId } from '#db/ids.ts'
import { enqueueJobSteps } from '#db/jobs.ts'
import { runSteps } from '#db/transaction.ts'
import { databaseFileStore } from '#app/platform/file-store.server.ts'
import { createUser } from '#tests/support/repository.ts'

// Each planted certificate its own place in the tenant's status list (a random one collided).
let nextStatusIndex = 0

/**
 * A person with a row in every table that can be keyed to them (data rights, decision 0044), each
 * carrying values that name them (`marker` in their address, name, texts and file), so a test can
 * look for those values after an erasure and for another person's in an archive.
 */
export interface Planted {
	id: string
	email: string
	name: string
	formerName: string
	fileBody: string
	fileIds: string[]
}

export async function plantPerson(
	db: Database,
	tenantId: string,
	marker: string,
	other: { id: string } | null = null,
	names: { name: string; formerName: string } = { name: `Name ${marker}`, formerName: `Formerly ${marker}` },
): Promise<Planted> {
	const email = `${marker}@example.test`
	const { name, formerName } = names
	const user = await createUser(db, { tenant_id: tenantId, email, name, role: 'student', password_hash: 'x' })
	const t = db.t
	const mine = { tenant_id: tenantId, user_id: user.id }
	const now = new Date()
	await db.orm.insert(t.enrollments).values({ id: newId(), ...mine, course_slug: 'c1', status: 'active' })
	await db.orm
		.insert(t.entry_progress)
		.values({ id: newId(), ...mine, course_slug: 'c1', entry_slug: 'e1', completed_at: now })
	const attemptId = newId()
	await db.orm.insert(t.quiz_attempts).values({
		id: attemptId,
		...mine,
		course_slug: 'c1',
		entry_slug: 'q1',
		attempt_number: 1,
		score: 80,
		passed: true,
		answers_json: { q1: ['a'] },
		feedback_json: [],
		submitted_at: now,
	})
	await db.orm
		.insert(t.quiz_attempt_dues)
		.values({ attempt_id: attemptId, tenant_id: tenantId, due_at: new Date(now.getTime() - 1000), late: true })
	const submissionId = newId()
	await db.orm.insert(t.assignment_submissions).values({
		id: submissionId,
		...mine,
		course_slug: 'c1',
		entry_slug: 'a1',
		submission_number: 1,
		text_answer: `My essay, ${name}`,
		link_url: `https://example.test/${marker}`,
		status: 'graded',
		score: 5,
		max_score: 10,
		passed: true,
		feedback: `Well done ${name}`,
		graded_by: other?.id ?? null,
		graded_at: now,
	})
	const fileBody = `file-bytes-of-${marker}-`.repeat(20_000)
	const fileId = newId()
	await db.orm.insert(t.submission_files).values({
		id: fileId,
		...mine,
		submission_id: submissionId,
		file_name: `${marker}.txt`,
		content_type: 'text/plain',
		size_bytes: 0,
		sha256: '',
	})
	const stored = await databaseFileStore(db).write(
		fileId,
		(async function* () {
			yield Buffer.from(fileBody)
		})(),
		10_000_000,
	)
	await db.orm
		.update(t.submission_files)
		.set({ size_bytes: stored.size, sha256: stored.sha256 })
		.where(sql`${t.submission_files.id} = ${fileId}`)
	await db.orm
		.insert(t.course_passes)
		.values({ id: newId(), ...mine, course_slug: 'c1', passed: true, average: 80, passed_at: now })
	await db.orm.insert(t.second_chances).values({
		id: newId(),
		...mine,
		course_slug: 'c1',
		entry_slug: 'q1',
		kind: 'quiz_attempts',
		extra_attempts: 1,
		reason: `${name} was ill`,
		granted_by: other?.id ?? null,
	})
	const certificateId = newId()
	await db.orm.insert(t.certificates).values({
		id: certificateId,
		...mine,
		course_slug: 'c1',
		public_id: `pub-${marker}`,
		recipient_name: name,
		course_title: 'Course One',
		credential_json: JSON.stringify({
			id: `https://x.test/certificates/pub-${marker}`,
			issuer: { name: 'Acme' },
			credentialSubject: { name },
		}),
		key_version: 1,
		status_list: 1,
		status_index: nextStatusIndex++,
	})
	await db.orm
		.insert(t.course_admin_assignments)
		.values({ id: newId(), ...mine, course_slug: 'c2', assigned_by: other?.id ?? null })
	await db.orm.insert(t.submission_watchers).values({ ...mine, course_slug: 'c2' })
	// Due dates and reminders (decisions 0045, 0047): staff's free-text reason names the person.
	await db.orm.insert(t.user_settings).values({ ...mine, time_zone: 'Europe/Paris' })
	await db.orm.insert(t.due_extensions).values({
		id: newId(),
		...mine,
		course_slug: 'c1',
		entry_slug: 'e1',
		due_at: now,
		reason: `${name} was ill`,
	})
	await db.orm.insert(t.reminders_sent).values({ ...mine, kind: 'inactivity', item_key: `c1@${now.toISOString()}` })
	await db.orm.insert(t.reminder_opt_outs).values({ ...mine, kind: 'announcement' })
	await db.orm.insert(t.calendar_feeds).values({ ...mine, nonce: `nonce-${marker}`, token_hash: `hash-${marker}` })
	await db.orm
		.insert(t.oauth_accounts)
		.values({ id: newId(), ...mine, provider: 'github', provider_account_id: `gh-${marker}` })
	await db.orm.insert(t.sessions).values({
		id: newId(),
		user_id: user.id,
		tenant_id: tenantId,
		token_version: 0,
		idle_expires_at: new Date(Date.now() + 3_600_000),
		expires_at: new Date(Date.now() + 3_600_000),
	})
	await db.orm.insert(t.verification_tokens).values({
		id: newId(),
		user_id: user.id,
		token_hash: `hash-${marker}`,
		type: 'password_reset',
		expires_at: new Date(Date.now() + 3_600_000),
	})
	// Invitations addressed to them: an accepted one (named by the admin's list) and a pending one.
	for (const accepted of [now, null]) {
		const invitationId = newId()
		await db.orm.insert(t.invitations).values({
			id: invitationId,
			email,
			tenant_id: tenantId,
			role: accepted ? 'student' : 'course_admin',
			course_slug: accepted ? null : 'c3',
			token_hash: `inv-${marker}-${accepted ? 'a' : 'p'}`,
			invited_by: other?.id ?? null,
			expires_at: new Date(Date.now() + 3_600_000),
			accepted_at: accepted,
		})
		await db.orm
			.insert(t.invitation_courses)
			.values({ id: newId(), tenant_id: tenantId, invitation_id: invitationId, course_slug: 'c1' })
		await db.orm.insert(t.invitation_names).values({ invitation_id: invitationId, tenant_id: tenantId, name })
		await db.orm.insert(t.audit_log).values({
			id: newId(),
			actor_user_id: other?.id ?? null,
			action: 'invitation.sent',
			target_kind: 'invitation',
			target_id: invitationId,
			tenant_id: tenantId,
			metadata: { email, role: 'student' },
		})
	}
	// Audit rows about them and by them.
	await db.orm.insert(t.audit_log).values([
		{
			id: newId(),
			actor_user_id: user.id,
			action: 'account.name.changed',
			target_kind: 'user',
			target_id: user.id,
			tenant_id: tenantId,
			metadata: { from: formerName, to: name },
		},
		{
			id: newId(),
			actor_user_id: other?.id ?? null,
			action: 'user.role_changed',
			target_kind: 'user',
			target_id: user.id,
			tenant_id: tenantId,
			metadata: { from: 'student', to: 'course_admin' },
		},
		// Free text staff wrote that names them: every audit field that holds a reason.
		...(['learner.due_extended', 'learner.attempts_granted', 'learner.assignment_reopened'] as const).map((action) => ({
			id: newId(),
			actor_user_id: other?.id ?? null,
			action,
			target_kind: 'user',
			target_id: user.id,
			tenant_id: tenantId,
			metadata: { learnerEmail: email, courseSlug: 'c1', entrySlug: 'q1', reason: `${name} was ill` },
		})),
		{
			id: newId(),
			actor_user_id: other?.id ?? null,
			action: 'certificate.revoked',
			target_kind: 'certificate',
			target_id: certificateId,
			tenant_id: tenantId,
			metadata: { reason: `${name} asked for it` },
		},
	])
	// Provisioned by the school's identity provider (SCIM, decision 0070): its id for them, a group of theirs.
	await db.orm.insert(t.scim_users).values({ ...mine, external_id: `ext-${marker}` })
	const groupId = newId()
	await db.orm.insert(t.scim_groups).values({ id: groupId, tenant_id: tenantId, display_name: `Group of ${marker}` })
	await db.orm.insert(t.scim_group_members).values({ group_id: groupId, ...mine })
	// A mail job that names them.
	await runSteps(db, (tx) =>
		enqueueJobSteps(tx, 'mail.magicLink', { tenantId, email, origin: 'http://acme.localhost', locale: 'en' }),
	)
	return { id: user.id, email, name, formerName, fileBody, fileIds: [fileId] }
}

/** Every table with a user-keyed column: user_id, or a column that names a user who acted. */
export function userKeyedTables(db: Database) {
	return Object.entries(db.t)
		.filter(([, table]) => Object.keys(getTableColumns(table as never)).some((c) => c === 'user_id'))
		.map(([name]) => name)
}

/** Names of every table the database has (both schemas on PostgreSQL: the app's and pg-boss's). */
async function allTables(db: Database): Promise<string[]> {
	if (db.dialect === 'pg') {
		const rows = (await db.orm.execute(
			sql`select table_schema || '.' || table_name as name from information_schema.tables
				where table_schema in ('public', 'pgboss', 'drizzle') and table_type = 'BASE TABLE'`,
		)) as unknown as Array<{ name: string }>
		return rows.map((r) => r.name)
	}
	const sqlite = db.orm as unknown as { all: (q: unknown) => Array<{ name: string }> }
	return sqlite.all(sql`select name from sqlite_master where type = 'table'`).map((r) => r.name)
}

/**
 * Every place in the database where one of `needles` occurs: each table's rows, text and JSON
 * as text, binary as bytes. Answers "table: needle" for each find.
 */
export async function findInDatabase(db: Database, needles: string[]): Promise<string[]> {
	const found: string[] = []
	for (const table of await allTables(db)) {
		const quoted = table
			.split('.')
			.map((p) => `"${p}"`)
			.join('.')
		const rows =
			db.dialect === 'pg'
				? ((await db.orm.execute(sql.raw(`select * from ${quoted}`))) as unknown as Array<Record<string, unknown>>)
				: (db.orm as unknown as { all: (q: unknown) => Array<Record<string, unknown>> }).all(
						sql.raw(`select * from ${quoted}`),
					)
		for (const row of rows)
			for (const value of Object.values(row)) {
				const bytes = Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value) : null
				const text = bytes ? null : JSON.stringify(value)?.toLowerCase()
				for (const needle of needles)
					if (bytes ? bytes.includes(needle) : text?.includes(needle.toLowerCase())) found.push(`${table}: ${needle}`)
			}
	}
	return [...new Set(found)]
}

import { createHash } from 'node:crypto'
import { unzipSync, strFromU8 } from 'fflate'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '#db/ids.ts'
import { ARCHIVED_TABLES } from '#db/data-rights.ts'
import { databaseFileStore } from '#app/platform/file-store.server.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { plantPerson, userKeyedTables, type Planted } from '#tests/support/person-data.ts'
import { dataArchive } from './data-archive.server.ts'
import { createTenant, createUser } from '#tests/support/repository.ts'

/** Tables keyed to a user that the archive leaves out, each for a reason decision 0044 gives. */
const LEFT_OUT: string[] = []

async function unzip(stream: ReadableStream<Uint8Array>) {
	const bytes = new Uint8Array(await new Response(stream).arrayBuffer())
	return unzipSync(bytes)
}

describe.each(DIALECTS)('the data archive on %s', (dialect) => {
	let db: TestDatabase
	let me: Planted
	let other: Planted
	let elsewhere: Planted
	let tenantId: string
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		tenantId = (await createTenant(db, { slug: 'one', name: 'One', custom_domain: null }))!.id
		const otherTenant = (await createTenant(db, { slug: 'two', name: 'Two', custom_domain: null }))!.id
		const admin = await createUser(db, {
			tenant_id: tenantId,
			email: 'admin-secret@example.test',
			name: 'Admin Secretname',
			role: 'tenant_admin',
		})
		// Another learner of the tenant, who also graded, invited and assigned the archived person.
		other = await plantPerson(db, tenantId, 'otherperson', admin)
		me = await plantPerson(db, tenantId, 'archived', { id: other.id })
		// The same address in another tenant: a different person as far as this site's tenants go.
		elsewhere = await plantPerson(db, otherTenant, 'archived-elsewhere')
		await db.orm.update(db.t.users).set({ email: me.email }).where(eq(db.t.users.id, elsewhere.id))
		// Something the archived person did to the other one: theirs to know they did it, not whom to.
		await db.orm.insert(db.t.audit_log).values({
			id: newId(),
			actor_user_id: me.id,
			action: 'invitation.sent',
			target_kind: 'invitation',
			target_id: 'their-invitation',
			tenant_id: tenantId,
			metadata: { email: other.email, name: other.name },
		})
	})
	afterAll(() => db?.drop())

	it('holds every table keyed to the person, with the database counts, and each file byte for byte', async () => {
		const files = unzip((await dataArchive(db, databaseFileStore(db), { tenantId, userId: me.id }))!)
		const entries = await files
		const index = JSON.parse(strFromU8(entries['index.json']))
		expect(entries['README.txt']).toBeDefined()
		// Every user-keyed table of the schema is in the archive or left out for a stated reason.
		for (const table of userKeyedTables(db)) expect([...ARCHIVED_TABLES, ...LEFT_OUT]).toContain(table)
		for (const table of ARCHIVED_TABLES) {
			const rows = JSON.parse(strFromU8(entries[`tables/${table}.json`]))
			expect(rows.length, table).toBe(index.tables[table].rows)
		}
		// Counts against the database, table by table.
		for (const table of userKeyedTables(db)) {
			if (table === 'submission_files' || table === 'verification_tokens' || table === 'sessions') continue
			const t = (db.t as Record<string, any>)[table]
			const rows = await db.orm.select().from(t).where(eq(t.user_id, me.id))
			expect(JSON.parse(strFromU8(entries[`tables/${table}.json`])).length, table).toBe(rows.length)
			expect(rows.length, table).toBeGreaterThan(0)
		}
		const byTable = (name: string) => JSON.parse(strFromU8(entries[`tables/${name}.json`]))
		expect(byTable('sessions')).toHaveLength(1)
		expect(byTable('verification_tokens')).toHaveLength(1)
		expect(byTable('invitations')).toHaveLength(2)
		expect(byTable('invitation_courses')).toHaveLength(2)
		expect(byTable('invitation_names')).toHaveLength(2)
		// About them: the name change, the role change, staff's three reasons, two invitation rows.
		expect(
			byTable('audit_log')
				.map((r: { action: string }) => r.action)
				.sort(),
		).toEqual(
			[
				'account.name.changed',
				'certificate.revoked',
				'invitation.sent',
				'invitation.sent',
				'invitation.sent',
				'learner.assignment_reopened',
				'learner.attempts_granted',
				'learner.due_extended',
				'user.role_changed',
			].sort(),
		)
		const [file] = byTable('submission_files')
		const body = entries[`files/${file.id}/archived.txt`]
		expect(Buffer.from(body).toString()).toBe(me.fileBody)
		expect(createHash('sha256').update(body).digest('hex')).toBe(file.sha256)
		expect(index.files).toHaveLength(1)
	})

	it('holds no secret and nothing about anyone else', async () => {
		const entries = await unzip((await dataArchive(db, databaseFileStore(db), { tenantId, userId: me.id }))!)
		const all = Object.values(entries)
			.map((b) => Buffer.from(b).toString())
			.join('\n')
		expect(all).toContain(me.email)
		expect(all).toContain(me.name)
		for (const foreign of [
			other.email,
			other.name,
			other.fileBody.slice(0, 40),
			elsewhere.name,
			elsewhere.id,
			'admin-secret',
			'Secretname',
		])
			expect(all, foreign).not.toContain(foreign)
		for (const secret of [
			'password_hash',
			'token_hash',
			'proof_hash',
			'token_version',
			`hash-archived`,
			'inv-archived',
		])
			expect(all, secret).not.toContain(secret)
	})

	it('is null for a person of another tenant', async () => {
		expect(await dataArchive(db, databaseFileStore(db), { tenantId, userId: elsewhere.id })).toBeNull()
	})
})

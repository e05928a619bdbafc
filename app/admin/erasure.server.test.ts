import { eq } from 'drizzle-orm'
import { newId } from '#db/ids.ts'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '#db/client.ts'
import { erasedEmail } from '#db/data-rights.ts'
import { findUserById, type User } from '#db/users.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { findInDatabase, plantPerson } from '#tests/support/person-data.ts'
import type { AdminScope } from './admin.server.ts'
import { erasePerson } from './erasure.server.ts'
import { createTenant, createUser } from '#tests/support/repository.ts'

/**
 * Names in every alphabet (issue 52): SQLite's lower() and LIKE fold only A to Z, so a choice of rows
 * made with them missed all of these but the Chinese and Arabic ones. Each has its locale, for the
 * free text that writes the name in other capitals (Turkish capitals İ and I, lower i and ı).
 */
const ALPHABETS = [
	{ script: 'Latin with diacritics', locale: 'fr', name: 'Élodie Östberg', formerName: 'Ömer Ünal' },
	{ script: 'Greek', locale: 'el', name: 'Αθηνά Παπαδοπούλου', formerName: 'Σωκράτης Νικολάου' },
	{ script: 'Cyrillic', locale: 'ru', name: 'Ярослава Ёлкина', formerName: 'Илья Щукин' },
	{ script: 'Turkish dotted and dotless i', locale: 'tr', name: 'İpek Işık', formerName: 'Irmak Yıldız' },
	// Two characters: a whole Chinese name, which free text writes without spaces around it.
	{ script: 'Chinese', locale: 'zh', name: '王芳', formerName: '李小龍' },
	{ script: 'Arabic', locale: 'ar', name: 'فاطمة الزهراء', formerName: 'عمر خالد' },
]

/** The ways free text may write a name: in the locale's capitals or small letters, decomposed (NFD). */
const spellings = (name: string, locale: string) => [
	...new Set([name, name.toLocaleUpperCase(locale), name.toLocaleLowerCase(locale), name.normalize('NFD')]),
]

/** An admin's scope as the guards make it, enough for the service. */
const scopeOf = (db: Database, actor: User) =>
	({
		ctx: { db },
		session: { user: actor, impersonator: null },
		tenant: { id: actor.tenant_id },
	}) as unknown as AdminScope

describe.each(DIALECTS)('erasure on %s', (dialect) => {
	let db: TestDatabase
	let tenantId: string
	let otherTenantId: string
	let admin: User
	let n = 0
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		tenantId = (await createTenant(db, { slug: 'one', name: 'One', custom_domain: null }))!.id
		otherTenantId = (await createTenant(db, { slug: 'two', name: 'Two', custom_domain: null }))!.id
		admin = await createUser(db, {
			tenant_id: tenantId,
			email: 'admin@one.test',
			name: 'Admin One',
			role: 'tenant_admin',
		})
	})
	afterAll(() => db?.drop())
	afterEach(() => vi.restoreAllMocks())

	it('leaves no personal value in any table or log line, and keeps the other person whole', async () => {
		const other = await plantPerson(db, tenantId, `keep${++n}`, admin)
		const gone = await plantPerson(db, tenantId, `gone${n}`, { id: other.id })
		// The admin's own rows that name the person: an invitation sent to their address.
		const lines: string[] = []
		vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(String(line)))
		vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)))
		expect(await erasePerson(scopeOf(db, admin), { tenantId, userId: gone.id })).toBe(true)
		vi.restoreAllMocks()
		const personal = [
			gone.email,
			gone.name,
			gone.formerName,
			`gh-gone${n}`,
			`example.test/gone${n}`,
			gone.fileBody.slice(0, 30),
		]
		expect(await findInDatabase(db, personal)).toEqual([])
		expect(lines.length).toBeGreaterThan(0)
		for (const value of personal) expect(lines.join('\n')).not.toContain(value)
		// The other person keeps everything; the scan does find personal values where they are.
		const kept = await findInDatabase(db, [other.email, other.name, other.fileBody.slice(0, 30)])
		expect(kept.length).toBeGreaterThan(3)
		const row = (await findUserById(db, gone.id))!
		expect(row.email).toBe(erasedEmail(gone.id))
		expect(row.deactivated_at).not.toBeNull()
		expect(row.token_version).toBe(1)
	})

	it.each(ALPHABETS)(
		'leaves no name in $script in any column, audit field or log line',
		async ({ locale, name, formerName }) => {
			const other = await plantPerson(db, tenantId, `keep${++n}`, admin)
			const gone = await plantPerson(db, tenantId, `gone${n}`, { id: other.id }, { name, formerName })
			// Staff's free text about them in other spellings, on rows about something else of the tenant.
			const variants = [...spellings(name, locale), ...spellings(formerName, locale)]
			await db.orm.insert(db.t.audit_log).values(
				variants.map((v) => ({
					id: newId(),
					actor_user_id: admin.id,
					action: 'certificate.revoked',
					target_kind: 'certificate',
					target_id: newId(),
					tenant_id: tenantId,
					metadata: { reason: `${v} asked for it` },
				})),
			)
			const lines: string[] = []
			vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(String(line)))
			vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)))
			expect(await erasePerson(scopeOf(db, admin), { tenantId, userId: gone.id })).toBe(true)
			vi.restoreAllMocks()
			const personal = [gone.email, ...variants]
			expect(await findInDatabase(db, personal)).toEqual([])
			for (const value of personal) expect(lines.join('\n')).not.toContain(value)
			// The scan finds them where they are: the other person's rows are whole.
			expect((await findInDatabase(db, [other.name])).length).toBeGreaterThan(3)
			// Free text keeps its other words.
			const reasons = await db.orm
				.select({ metadata: db.t.audit_log.metadata })
				.from(db.t.audit_log)
				.where(eq(db.t.audit_log.actor_user_id, admin.id))
			expect(reasons.map((r) => r.metadata.reason)).toContain('[erased] asked for it')
		},
	)

	it('keeps what others need without the person: scores, results, a revoked certificate, the audit trail', async () => {
		const gone = await plantPerson(db, tenantId, `kept${++n}`)
		expect(await erasePerson(scopeOf(db, admin), { tenantId, userId: gone.id })).toBe(true)
		const t = db.t
		const [attempt] = await db.orm.select().from(t.quiz_attempts).where(eq(t.quiz_attempts.user_id, gone.id))
		expect(attempt.score).toBe(80)
		const [submission] = await db.orm
			.select()
			.from(t.assignment_submissions)
			.where(eq(t.assignment_submissions.user_id, gone.id))
		expect(submission).toMatchObject({ score: 5, text_answer: null, link_url: null, feedback: null })
		const [certificate] = await db.orm.select().from(t.certificates).where(eq(t.certificates.user_id, gone.id))
		expect(certificate).toMatchObject({ revoked_reason: 'erased', recipient_name: '' })
		expect(certificate.revoked_at).not.toBeNull()
		expect(JSON.parse(certificate.credential_json)).toEqual({
			id: `https://x.test/certificates/pub-kept${n}`,
			issuer: { name: 'Acme' },
			erased: true,
		})
		const sessions = await db.orm.select().from(t.sessions).where(eq(t.sessions.user_id, gone.id))
		expect(sessions.every((s) => s.revoked_at)).toBe(true)
		expect(await db.orm.select().from(t.verification_tokens).where(eq(t.verification_tokens.user_id, gone.id))).toEqual(
			[],
		)
		expect(await db.orm.select().from(t.submission_files).where(eq(t.submission_files.user_id, gone.id))).toEqual([])
		// The pending invitation to them is withdrawn, the accepted one kept under the placeholder.
		const invitations = await db.orm
			.select()
			.from(t.invitations)
			.where(eq(t.invitations.email, erasedEmail(gone.id)))
		expect(invitations.map((i) => Boolean(i.accepted_at))).toEqual([true])
		const audit = await db.orm.select().from(t.audit_log).where(eq(t.audit_log.target_id, gone.id))
		const erased = audit.find((r) => r.action === 'user.erased')!
		expect(erased).toMatchObject({ actor_user_id: admin.id, tenant_id: tenantId })
		expect(erased.metadata).toEqual({ files: 1, certificates: 1, invitations: 1 })
		expect(audit.find((r) => r.action === 'account.name.changed')!.metadata).toEqual({
			from: '[erased]',
			to: '[erased]',
		})
		// Free text that named them keeps its other words.
		const [revoked] = await db.orm.select().from(t.audit_log).where(eq(t.audit_log.target_id, certificate.id))
		expect(revoked.metadata).toEqual({ reason: '[erased] asked for it' })
	})

	it('refuses, changing nothing, whom the actor may not erase when it takes effect', async () => {
		const super_ = await createUser(db, {
			tenant_id: null,
			email: `super${++n}@x.test`,
			name: 'Super',
			role: 'super_admin',
		})
		const other = await createUser(db, {
			tenant_id: otherTenantId,
			email: `o${n}@two.test`,
			name: 'Two Admin',
			role: 'tenant_admin',
		})
		const courseAdmin = await createUser(db, {
			tenant_id: tenantId,
			email: `ca${n}@one.test`,
			name: 'CA',
			role: 'course_admin',
		})
		const demoted = await createUser(db, {
			tenant_id: tenantId,
			email: `d${n}@one.test`,
			name: 'Was Admin',
			role: 'tenant_admin',
		})
		const target = await plantPerson(db, tenantId, `target${n}`)
		const refused = async (actor: User, userId = target.id, tenant = tenantId) =>
			expect(await erasePerson(scopeOf(db, actor), { tenantId: tenant, userId })).toBe(false)
		await refused(courseAdmin)
		await refused(other)
		await refused(admin, admin.id)
		await refused(admin, super_.id)
		await refused(admin, target.id, otherTenantId)
		// Demoted between the page and the post: the role is read when the erasure takes effect.
		await db.orm.update(db.t.users).set({ role: 'student' }).where(eq(db.t.users.id, demoted.id))
		await refused(demoted)
		await db.orm
			.update(db.t.users)
			.set({ role: 'tenant_admin', deactivated_at: new Date() })
			.where(eq(db.t.users.id, demoted.id))
		await refused(demoted)
		expect((await findUserById(db, target.id))!.email).toBe(target.email)
		expect(await findInDatabase(db, [target.fileBody.slice(0, 30)])).not.toEqual([])
		// A super admin may, and only once.
		expect(await erasePerson(scopeOf(db, super_), { tenantId, userId: target.id })).toBe(true)
		expect(await erasePerson(scopeOf(db, super_), { tenantId, userId: target.id })).toBe(false)
	})
})

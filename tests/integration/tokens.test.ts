import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashToken, issueToken, peekToken, readToken, TOKEN_TTL_MS } from '#app/accounts/tokens.server.ts'
import { upsertTenant } from '#db/tenants.ts'
import { upsertUser } from '#db/users.ts'
import { createTestDatabase, DIALECTS, type TestDatabase } from '#tests/support/databases.ts'
import { consumeToken } from '#tests/support/repository.ts'

describe.each(DIALECTS)('single-use tokens on %s', (dialect) => {
	let db: TestDatabase
	let userId: string
	let tenantId: string
	beforeAll(async () => {
		db = await createTestDatabase(dialect)
		const tenant = await upsertTenant(db, { slug: 'acme', name: 'Acme' })
		tenantId = tenant.id
		userId = (await upsertUser(db, { tenant_id: tenant.id, email: 'u@acme.test', role: 'student', name: 'U' })).id
	})
	afterAll(() => db?.drop())

	it('stores only a SHA-256 of a token of at least 128 random bits', async () => {
		const raw = await issueToken(db, userId, 'magic_link')
		expect(Buffer.from(raw, 'base64url').length).toBeGreaterThanOrEqual(16)
		const rows = await db.orm
			.select()
			.from(db.t.verification_tokens)
			.where(eq(db.t.verification_tokens.user_id, userId))
		const stored = rows.map((r) => r.token_hash)
		expect(stored).toContain(createHash('sha256').update(raw).digest('hex'))
		expect(stored.some((h) => h.includes(raw))).toBe(false)
		expect(hashToken(raw)).not.toBe(raw)
	})

	it('applies the lifetimes: magic link 900 s, reset 1 h', async () => {
		expect(TOKEN_TTL_MS.magic_link).toBe(900_000)
		expect(TOKEN_TTL_MS.password_reset).toBe(3_600_000)
		const issuedAt = new Date('2026-11-01T10:00:00Z')
		const raw = await issueToken(db, userId, 'magic_link', { now: issuedAt })
		expect((await peekToken(db, raw, 'magic_link', new Date(issuedAt.getTime() + 899_000))).ok).toBe(true)
		expect(await consumeToken(db, raw, 'magic_link', new Date(issuedAt.getTime() + 900_000))).toEqual({
			ok: false,
			reason: 'expired',
		})
	})

	it('is used once, and a token of another type is invalid', async () => {
		const raw = await issueToken(db, userId, 'password_reset')
		expect(await consumeToken(db, raw, 'magic_link')).toEqual({ ok: false, reason: 'invalid' })
		expect((await consumeToken(db, raw, 'password_reset')).ok).toBe(true)
		expect(await consumeToken(db, raw, 'password_reset')).toEqual({ ok: false, reason: 'used' })
		expect(await consumeToken(db, 'x'.repeat(43), 'password_reset')).toEqual({ ok: false, reason: 'invalid' })
		expect(await consumeToken(db, "'; drop table users; --", 'password_reset')).toEqual({
			ok: false,
			reason: 'invalid',
		})
	})

	it('lets exactly one of 50 concurrent consumers win', async () => {
		const raw = await issueToken(db, userId, 'email_verify')
		const results = await Promise.all(Array.from({ length: 50 }, () => consumeToken(db, raw, 'email_verify')))
		const won = results.filter((r) => r.ok).length
		const used = results.filter((r) => !r.ok && r.reason === 'used').length
		console.log(`token race on ${dialect}: 50 consumers, ${won} won, ${used} got "used"`)
		expect(won).toBe(1)
		expect(used).toBe(49)
		const [row] = await db.orm
			.select()
			.from(db.t.verification_tokens)
			.where(eq(db.t.verification_tokens.token_hash, hashToken(raw)))
		expect(row.used_at).not.toBeNull()
	})

	it('lets exactly one of 50 concurrent consumers win when scoped to the tenant', async () => {
		const raw = await issueToken(db, userId, 'magic_link')
		const results = await Promise.all(
			Array.from({ length: 50 }, () => consumeToken(db, raw, 'magic_link', new Date(), { tenantId })),
		)
		expect(results.filter((r) => r.ok)).toHaveLength(1)
		expect(results.filter((r) => !r.ok && r.reason === 'used')).toHaveLength(49)
	})

	it("neither finds nor uses another tenant's token when scoped to a tenant", async () => {
		const other = await upsertTenant(db, { slug: 'globex', name: 'Globex' })
		const raw = await issueToken(db, userId, 'password_reset')
		expect(await peekToken(db, raw, 'password_reset', new Date(), { tenantId: other.id })).toEqual({
			ok: false,
			reason: 'invalid',
		})
		expect(await consumeToken(db, raw, 'password_reset', new Date(), { tenantId: other.id })).toEqual({
			ok: false,
			reason: 'invalid',
		})
		// Nor on the apex, whose tokens are the platform accounts'.
		expect(await consumeToken(db, raw, 'password_reset', new Date(), { tenantId: null })).toEqual({
			ok: false,
			reason: 'invalid',
		})
		const [row] = await db.orm
			.select()
			.from(db.t.verification_tokens)
			.where(eq(db.t.verification_tokens.token_hash, hashToken(raw)))
		expect(row.used_at).toBeNull()
		expect((await consumeToken(db, raw, 'password_reset', new Date(), { tenantId })).ok).toBe(true)
	})

	it('binds a payload into the token so it cannot be altered', async () => {
		const raw = await issueToken(db, userId, 'email_change', { payload: 'new@acme.test' })
		expect(readToken(raw, 'email_change')?.payload).toBe('new@acme.test')
		const [random] = raw.split('.')
		const forged = `${random}.${Buffer.from('attacker@evil.test').toString('base64url')}`
		expect(await peekToken(db, forged, 'email_change')).toEqual({ ok: false, reason: 'invalid' })
		expect((await peekToken(db, raw, 'email_change')).ok).toBe(true)
	})
})

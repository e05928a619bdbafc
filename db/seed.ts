// The demo data set (README, "Demo data"). Idempotent: running it again
// brings every demo row back to its described state without duplicates.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { hashPassword } from '#app/accounts/password.server.ts'
import { openDatabase, type Database } from './client.ts'
import { assignCourseAdmin, markEntryCompleteRow, putEnrollment } from './learning.ts'
import type { Role } from './schema/values.ts'
import { upsertTenant } from './tenants.ts'
import { upsertUser, type User } from './users.ts'

export const DEMO_TENANTS = {
	acme: {
		slug: 'acme',
		name: 'Acme Academy',
		status: 'active',
		custom_domain: 'learn.acme.test',
		// Its domain serves it (decision 0062): canonical URLs and mails name it.
		feature_flags_json: { customDomainLive: true },
	},
	globex: { slug: 'globex', name: 'Globex University', status: 'active', feature_flags_json: { magicLink: false } },
	initech: { slug: 'initech', name: 'Initech Learning', status: 'suspended' },
} as const

type DemoUser = {
	tenant: keyof typeof DEMO_TENANTS | null
	email: string
	role: Role
	name: string
	deactivated?: boolean
}

export const DEMO_USERS: DemoUser[] = [
	{ tenant: null, email: 'root@platform.test', role: 'super_admin', name: 'Platform Root' },
	{ tenant: 'acme', email: 'admin@acme.test', role: 'tenant_admin', name: 'Ada Admin' },
	{ tenant: 'acme', email: 'author@acme.test', role: 'course_admin', name: 'Arthur Author' },
	{ tenant: 'acme', email: 'learner@acme.test', role: 'student', name: 'Lena Learner' },
	{ tenant: 'acme', email: 'newbie@acme.test', role: 'student', name: 'Noah Newbie' },
	{ tenant: 'acme', email: 'gone@acme.test', role: 'student', name: 'Gina Gone', deactivated: true },
	{ tenant: 'acme', email: 'shared@example.test', role: 'student', name: 'Sam Shared' },
	{ tenant: 'globex', email: 'admin@globex.test', role: 'tenant_admin', name: 'Gus Admin' },
	{ tenant: 'globex', email: 'learner@globex.test', role: 'student', name: 'Greta Learner' },
	{ tenant: 'globex', email: 'shared@example.test', role: 'student', name: 'Sam Shared' },
	{ tenant: 'initech', email: 'learner@initech.test', role: 'student', name: 'Ian Learner' },
]

export async function seedDemoData(db: Database, password: string) {
	const tenants = {
		acme: await upsertTenant(db, DEMO_TENANTS.acme),
		globex: await upsertTenant(db, DEMO_TENANTS.globex),
		initech: await upsertTenant(db, DEMO_TENANTS.initech),
	}
	const users: Record<string, User> = {}
	const verifiedAt = new Date('2026-09-01T09:00:00Z')
	// Every demo person has the demo password: one hash (argon2id, about 70 ms of a core) serves them
	// all, and every test stack seeds them.
	const passwordHash = await hashPassword(password)
	for (const u of DEMO_USERS) {
		const user = await upsertUser(db, {
			tenant_id: u.tenant ? tenants[u.tenant].id : null,
			email: u.email,
			role: u.role,
			name: u.name,
			password_hash: passwordHash,
			email_verified_at: verifiedAt,
			deactivated_at: u.deactivated ? verifiedAt : null,
		})
		users[`${u.tenant ?? 'platform'}:${u.email}`] = user
	}
	const acme = tenants.acme.id
	await assignCourseAdmin(
		db,
		{ tenantId: acme, userId: users['acme:author@acme.test'].id },
		'intro-to-web',
		users['acme:admin@acme.test'].id,
	)
	const learner = { tenantId: acme, userId: users['acme:learner@acme.test'].id }
	await putEnrollment(db, learner, 'intro-to-web', 'active')
	await markEntryCompleteRow(db, learner, 'intro-to-web', 'what-is-http', new Date('2026-10-01T10:00:00Z'))
	return { tenants, users }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	if (existsSync('.env')) process.loadEnvFile('.env')
	const { DATABASE_URL, SEED_DEMO_PASSWORD } = process.env
	if (!DATABASE_URL || !SEED_DEMO_PASSWORD) {
		console.error(`Configuration error: ${DATABASE_URL ? 'SEED_DEMO_PASSWORD' : 'DATABASE_URL'} is missing`)
		process.exit(1)
	}
	const db = openDatabase(DATABASE_URL, { max: 1 })
	try {
		await seedDemoData(db, SEED_DEMO_PASSWORD)
		console.log(`seeded demo data (${db.dialect})`)
	} finally {
		await db.close()
	}
}

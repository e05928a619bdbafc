import { eq, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import type { TenantStatus } from './schema/values.ts'
import { step, type Tx } from './transaction.ts'

export type Tenant = Database['t']['tenants']['$inferSelect']

/** Tenants whose custom domain is `host` or whose slug is `slug` (at most two rows). */
export async function findTenantsByDomainOrSlug(db: Database, host: string, slug: string | null) {
	const { tenants } = db.t
	const match = slug ? or(eq(tenants.custom_domain, host), eq(tenants.slug, slug)) : eq(tenants.custom_domain, host)
	return db.orm.select().from(tenants).where(match).limit(2)
}

export interface TenantInput {
	slug: string
	name: string
	status?: TenantStatus
	custom_domain?: string | null
	feature_flags_json?: Record<string, unknown>
}

/** Insert or update by slug; returns the stored row. Used by the seed and tenant admin. */
export async function upsertTenant(db: Database, input: TenantInput): Promise<Tenant> {
	const now = new Date()
	const status = input.status ?? 'active'
	const values = {
		name: input.name,
		status,
		custom_domain: input.custom_domain ?? null,
		feature_flags_json: input.feature_flags_json ?? {},
		updated_at: now,
		suspended_at: status === 'suspended' ? now : null,
	}
	const [row] = await db.orm
		.insert(db.t.tenants)
		.values({ id: newId(), slug: input.slug, created_at: now, ...values })
		.onConflictDoUpdate({ target: db.t.tenants.slug, set: values })
		.returning()
	return row
}

export async function listTenants(db: Database) {
	return db.orm.select().from(db.t.tenants).orderBy(db.t.tenants.slug)
}

export async function findTenantById(db: Database, id: string) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter.
	if (id.includes('\u0000')) return null
	const [row] = await db.orm.select().from(db.t.tenants).where(eq(db.t.tenants.id, id)).limit(1)
	return row ?? null
}

/** A new tenant, or null when the slug or custom domain is taken. */
export function* createTenantSteps(db: Tx, input: { slug: string; name: string; custom_domain: string | null }) {
	const now = new Date()
	const [row] = yield* step(
		db.orm
			.insert(db.t.tenants)
			.values({
				id: newId(),
				slug: input.slug,
				name: input.name,
				custom_domain: input.custom_domain,
				status: 'active',
				feature_flags_json: {},
				created_at: now,
				updated_at: now,
			})
			.onConflictDoNothing()
			.returning(),
	)
	return (row as Tenant | undefined) ?? null
}

export function* setTenantStatusSteps(db: Tx, id: string, status: TenantStatus) {
	const now = new Date()
	const [row] = yield* step(
		db.orm
			.update(db.t.tenants)
			.set({ status, updated_at: now, suspended_at: status === 'suspended' ? now : null })
			.where(eq(db.t.tenants.id, id))
			.returning(),
	)
	return (row as Tenant | undefined) ?? null
}

/**
 * Sets per-course flags of one course in the tenant's feature_flags_json (the keys given; the
 * course's other keys stay: the settings page saves `sequential` for a course admin and `seats` only
 * for a tenant admin, decision 0065), inside the database on the row as it is now: concurrent saves
 * of other courses, and flags changed since this process read the tenant, are kept (a JSON written
 * back from a cached copy lost them). A null value removes its key.
 */
export function* setCourseFlagsSteps(
	db: Tx,
	tenantId: string,
	courseSlug: string,
	flags: Record<string, boolean | number | null>,
) {
	const t = db.t.tenants
	const value = JSON.stringify(flags)
	const merged =
		db.dialect === 'pg'
			? sql`jsonb_set(jsonb_set(coalesce(${t.feature_flags_json}, '{}'::jsonb), '{courses}', coalesce(${t.feature_flags_json} -> 'courses', '{}'::jsonb)), array['courses', ${courseSlug}::text], jsonb_strip_nulls(coalesce(${t.feature_flags_json} -> 'courses' -> ${courseSlug}::text, '{}'::jsonb) || ${value}::jsonb))`
			: sql`json_set(coalesce(${t.feature_flags_json}, '{}'), ${`$.courses."${courseSlug}"`}, json_patch(coalesce(json_extract(${t.feature_flags_json}, ${`$.courses."${courseSlug}"`}), '{}'), json(${value})))`
	yield* writeFlagsSteps(db, tenantId, merged)
}

/** feature_flags_json set to `merged`, an expression over the row as it is now. */
function* writeFlagsSteps(db: Tx, tenantId: string, merged: SQL) {
	const t = db.t.tenants
	yield* step(
		db.orm
			.update(t)
			.set({ feature_flags_json: merged, updated_at: new Date() })
			.where(eq(t.id, tenantId))
			.returning({ id: t.id }),
	)
}

/** The tenant settings kept in feature_flags_json beside the spec's flags (decisions 0062, 0064). */
export type TenantSetting = { customDomainLive: boolean; timeZone: string }

/**
 * Sets one setting in the tenant's feature_flags_json, inside the database on the row as it is now
 * (as setCourseFlagsSteps, so other flags saved meanwhile stay).
 */
export function* setTenantSettingSteps<K extends keyof TenantSetting>(
	db: Tx,
	tenantId: string,
	key: K,
	value: TenantSetting[K],
) {
	const t = db.t.tenants
	const json = JSON.stringify(value)
	const merged =
		db.dialect === 'pg'
			? sql`jsonb_set(coalesce(${t.feature_flags_json}, '{}'::jsonb), array[${key}::text], ${json}::jsonb)`
			: sql`json_set(coalesce(${t.feature_flags_json}, '{}'), ${`$.${key}`}, json(${json}))`
	yield* writeFlagsSteps(db, tenantId, merged)
}

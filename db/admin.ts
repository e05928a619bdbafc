import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, like, lt, or, sql, type SQL } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { inCourse, isParam } from './learning.ts'
import { erasedUsers } from './data-rights.ts'
import { step, type Tx } from './transaction.ts'
import type { Role } from './schema/values.ts'

/*
 * What the admin pages read and change of a tenant's people: the user list (keyset pages, counts from
 * stats_counters), one scoped user, the home's counts, course admins. The audit log's reading is in
 * db/audit.ts, a course's roster and counts in db/course-roster.ts.
 */

export const PAGE_SIZE = 50

/** Text an admin typed, for a LIKE pattern: wildcards are dropped rather than escaped (SQLite's LIKE has no default escape). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '')

export interface UserFilters {
	/** null: every tenant (super_admin on the apex host). */
	tenantId: string | null
	q?: string
	role?: Role
	/** Erased people are listed only under `erased` (issue 52): nothing more can be done to them. */
	status?: 'active' | 'deactivated' | 'unverified' | 'erased'
	/** Keyset paging: the page of users listed after (older than) this user id, or before (newer than) it. */
	after?: string
	before?: string
}

/** Totals that no counter holds are counted up to here: beyond it the list says "more than". */
export const COUNT_CAP = 10_000

/**
 * One page of users, newest first, with the total for the filters. Pages are
 * keyset pages (after or before a user of the list), so the hundredth page
 * costs what the first does; the cursor's position is read from its row,
 * within the caller's tenant.
 */
export async function listUsers(db: Database, filters: UserFilters) {
	const u = db.t.users
	const where: SQL[] = []
	if (filters.tenantId) where.push(eq(u.tenant_id, filters.tenantId))
	if (filters.q) where.push(userSearch(db, filters.q))
	if (filters.role) where.push(eq(u.role, filters.role))
	if (filters.status === 'active') where.push(isNull(u.deactivated_at))
	if (filters.status === 'deactivated') where.push(isNotNull(u.deactivated_at))
	if (filters.status === 'unverified') where.push(isNull(u.email_verified_at))
	// Active users are never erased (erasure deactivates); every other list leaves the erased out.
	if (filters.status !== 'active') where.push(erasedUsers(db, filters.status === 'erased'))
	const condition = where.length ? and(...where) : undefined
	const cursor = filters.after ?? filters.before
	const backwards = !filters.after && filters.before !== undefined
	const page: SQL[] = []
	if (cursor !== undefined) {
		// No stored id contains NUL (and PostgreSQL refuses it in a query parameter): such a cursor names no user,
		// as in findScopedUser, rather than being cut down to an id that might exist.
		const id = cursor.includes('\u0000') ? '' : cursor
		const at = sql`(SELECT c.created_at FROM users c WHERE c.id = ${id}${filters.tenantId ? sql` AND c.tenant_id = ${filters.tenantId}` : sql``})`
		// The first bound lets both databases seek in (tenant_id, created_at); the second breaks ties by id.
		page.push(backwards ? sql`${u.created_at} >= ${at}` : sql`${u.created_at} <= ${at}`)
		page.push(
			backwards ? or(sql`${u.created_at} > ${at}`, gt(u.id, id))! : or(sql`${u.created_at} < ${at}`, lt(u.id, id))!,
		)
	}
	const order = backwards ? [asc(u.created_at), asc(u.id)] : [desc(u.created_at), desc(u.id)]
	// Totals from stats_counters where one exists: counting grows with the tenant.
	const counter = userCounter(filters)
	const [found, total] =
		counter || cursor !== undefined
			? await Promise.all([
					db.orm
						.select(listedColumns(db))
						.from(u)
						.where(and(condition, ...page))
						.orderBy(...order)
						.limit(PAGE_SIZE + 1),
					counter ? countedTotal(db, filters, counter) : cappedCount(db, condition),
				])
			: await firstPageCounted(db, condition)
	return {
		...keysetPage(found, filters),
		total,
		/** The total is COUNT_CAP and there are more. */
		totalCapped: !counter && total > COUNT_CAP,
	}
}

/**
 * A keyset page from the rows fetched for it (one more than a page when there are more, in the
 * direction read: newest first after a cursor, oldest first before one): the rows newest first,
 * and the cursors of the neighbouring pages (null: none).
 */
export function keysetPage<T extends { id: string }>(
	found: T[],
	cursors: Pick<UserFilters, 'after' | 'before'>,
	size = PAGE_SIZE,
) {
	const backwards = !cursors.after && cursors.before !== undefined
	const more = found.length > size
	const rows = found.slice(0, size)
	if (backwards) rows.reverse()
	return {
		rows,
		previous: (backwards ? more : cursors.after !== undefined) ? (rows[0]?.id ?? null) : null,
		next: backwards || more ? (rows.at(-1)?.id ?? null) : null,
		firstPage: (cursors.after ?? cursors.before) === undefined,
	}
}

/** Any part of the email or the name, case-insensitively, through the trigram index of each database. */
function userSearch(db: Database, q: string) {
	const u = db.t.users
	const literal = likeLiteral(q)
	if (db.dialect === 'sqlite' && literal.length >= 3) {
		// The FTS5 trigram index of drizzle/sqlite/0003_user_search.sql: a phrase is any substring
		// of the email or name, case-insensitively, as the LIKE below matches.
		const phrase = `{email name} : "${literal.replaceAll('"', '""')}"`
		return sql`${u.id} IN (SELECT id FROM users_search WHERE users_search MATCH ${phrase})`
	}
	if (db.dialect === 'pg') {
		// One trigram index over both (drizzle/pg/0006_user_search_one_index.sql): one index scan instead
		// of two. Emails are stored lower-case; a line break joins them (one in a search becomes a space).
		const text = literal.toLowerCase().replaceAll('\n', ' ')
		return sql`(${u.email} || chr(10) || lower(${u.name})) LIKE ${`%${text}%`}`
	}
	const pattern = `%${literal}%`
	return or(like(u.email, pattern.toLowerCase()), like(u.name, pattern))!
}

/** What the list shows of a user. */
function listedColumns(db: Database) {
	const u = db.t.users
	return {
		id: u.id,
		tenant_id: u.tenant_id,
		email: u.email,
		name: u.name,
		role: u.role,
		email_verified_at: u.email_verified_at,
		deactivated_at: u.deactivated_at,
		created_at: u.created_at,
	}
}

/**
 * A first page and the total of the same matches (up to COUNT_CAP + 1) from
 * one statement: a search reads its index once instead of once per query.
 */
async function firstPageCounted(db: Database, condition: SQL | undefined) {
	const u = db.t.users
	const columns = listedColumns(db)
	const matching = db.orm
		.select(columns)
		.from(u)
		.where(condition)
		.orderBy(desc(u.created_at), desc(u.id))
		.limit(COUNT_CAP + 1)
		.as('matching')
	// The same columns, read from the subquery.
	const outer = Object.fromEntries(
		Object.keys(columns).map((name) => [name, matching[name as keyof typeof columns]]),
	) as { [K in keyof typeof columns]: (typeof matching)[K] }
	const rows = await db.orm
		.select({ ...outer, total: sql<number>`count(*) over ()`.mapWith(Number) })
		.from(matching)
		.orderBy(desc(matching.created_at), desc(matching.id))
		.limit(PAGE_SIZE + 1)
	return [rows.map(({ total: _, ...row }) => row), rows[0]?.total ?? 0] as const
}

/** Rows matching, counted up to COUNT_CAP + 1: a broad search over a large tenant stops there. */
async function cappedCount(db: Database, condition: SQL | undefined) {
	const u = db.t.users
	const matching = db.orm
		.select({ one: sql`1` })
		.from(u)
		.where(condition)
		.limit(COUNT_CAP + 1)
		.as('matching')
	const [{ n }] = await db.orm.select({ n: count() }).from(matching)
	return Number(n)
}

/**
 * The counter that holds the total of a tenant's user list for these filters,
 * or null when the rows must be counted (a search, role and status together,
 * the apex). `active` is every user minus the deactivated ones.
 */
function userCounter(f: UserFilters): { plus: string; minus?: string } | null {
	if (!f.tenantId || f.q || (f.role && f.status) || f.status === 'erased') return null
	if (f.role) return { plus: `role:${f.role}` }
	if (f.status === 'active') return { plus: 'users', minus: 'deactivated' }
	return { plus: f.status ?? 'users' }
}

/** A tenant-level counter's value, or a course's (0 when no row exists yet). */
export async function tenantCounter(db: Database, tenantId: string, metric: string, courseSlug = '') {
	const [row] = await counterOf(db).execute({ tenantId, courseSlug, metric })
	return Number(row?.n ?? 0)
}
// Prepared: the user lists and a course's dashboard read it on every view.
const counterOf = preparedFor((db) => {
	const c = db.t.stats_counters
	return db.orm
		.select({ n: c.n })
		.from(c)
		.where(inCourse(c, isParam(c.metric, 'metric'), eq(c.entry_slug, ''), eq(c.bucket, 0)))
		.prepare('counter_of')
})

async function countedTotal(db: Database, filters: UserFilters, counter: { plus: string; minus?: string }) {
	const tenantId = filters.tenantId!
	const [plus, minus, erased] = await Promise.all([
		tenantCounter(db, tenantId, counter.plus),
		counter.minus ? tenantCounter(db, tenantId, counter.minus) : 0,
		// The counters hold the erased too (deactivated, unverified, of their role), the lists do not:
		// counted among the deactivated rows of the tenant, a few. `active` never held them.
		filters.status === 'active' ? 0 : countErased(db, tenantId, filters.role),
	])
	return plus - minus - erased
}

async function countErased(db: Database, tenantId: string, role: Role | undefined) {
	const u = db.t.users
	const [{ n }] = await db.orm
		.select({ n: count() })
		.from(u)
		.where(and(eq(u.tenant_id, tenantId), role ? eq(u.role, role) : undefined, erasedUsers(db)))
	return Number(n)
}

/** A user of this tenant (or any user for the apex super_admin), else null: cross-tenant targets are not found. */
export async function findScopedUser(db: Database, tenantId: string | null, userId: string) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter.
	if (userId.includes('\u0000')) return null
	const u = db.t.users
	const [row] = await db.orm
		.select()
		.from(u)
		.where(tenantId ? and(eq(u.id, userId), eq(u.tenant_id, tenantId)) : eq(u.id, userId))
		.limit(1)
	return row ?? null
}

/** The admin home's counts: from stats_counters on a tenant, summed over every tenant on the apex. */
export async function adminCounts(db: Database, tenantId: string | null) {
	const { users: u, tenants: t, stats_counters: c } = db.t
	const [rows, [tenants], [platformUsers]] = await Promise.all([
		db.orm
			.select({ metric: c.metric, n: sql<number>`sum(${c.n})` })
			.from(c)
			.where(
				and(tenantId ? eq(c.tenant_id, tenantId) : undefined, inArray(c.metric, ['users', 'enrolled', 'attempts'])),
			)
			.groupBy(c.metric),
		db.orm.select({ n: count() }).from(t),
		// Platform accounts (super_admin) belong to no tenant, so no counter holds them.
		tenantId ? [{ n: 0 }] : db.orm.select({ n: count() }).from(u).where(isNull(u.tenant_id)),
	])
	const sum = (metric: string) => Number(rows.find((r) => r.metric === metric)?.n ?? 0)
	return {
		users: sum('users') + Number(platformUsers.n),
		enrollments: sum('enrolled'),
		attempts: sum('attempts'),
		tenants: Number(tenants.n),
	}
}

/** Invalidates every session of a tenant's users (suspension). */
export function* bumpTenantTokenVersionsSteps(db: Tx, tenantId: string) {
	const u = db.t.users
	yield* step(
		db.orm
			.update(u)
			.set({ token_version: sql`${u.token_version} + 1`, updated_at: new Date() })
			.where(eq(u.tenant_id, tenantId))
			.returning({ id: u.id }),
	)
}

export async function courseAssignments(db: Database, tenantId: string, courseSlug: string) {
	const { course_admin_assignments: a, users: u } = db.t
	return db.orm
		.select({ id: a.id, userId: u.id, name: u.name, email: u.email, assignedAt: a.assigned_at })
		.from(a)
		.innerJoin(u, eq(u.id, a.user_id))
		.where(and(eq(a.tenant_id, tenantId), eq(a.course_slug, courseSlug)))
		.orderBy(u.email)
}

/** Removes one course admin's assignment to the course in this tenant; false when there was none. */
export function* revokeAssignmentSteps(db: Tx, tenantId: string, courseSlug: string, userId: string) {
	if (userId.includes('\u0000')) return false
	const a = db.t.course_admin_assignments
	const rows = yield* step(
		db.orm
			.delete(a)
			.where(and(eq(a.tenant_id, tenantId), eq(a.course_slug, courseSlug), eq(a.user_id, userId)))
			.returning({ id: a.id }),
	)
	return rows.length > 0
}

/**
 * The users of this tenant with these addresses (already normalised), 500 addresses a query to
 * stay within SQLite's parameter limit. Only this tenant's rows: an address known only to another
 * tenant or the platform is simply absent.
 */
export async function usersByEmails(db: Database, tenantId: string, emails: string[]) {
	const u = db.t.users
	const chunks = Array.from({ length: Math.ceil(emails.length / 500) }, (_, i) => emails.slice(i * 500, i * 500 + 500))
	const rows = await Promise.all(
		chunks.map((chunk) =>
			db.orm
				.select({
					id: u.id,
					email: u.email,
					name: u.name,
					role: u.role,
					locale: u.locale,
					verifiedAt: u.email_verified_at,
					deactivatedAt: u.deactivated_at,
				})
				.from(u)
				.where(and(eq(u.tenant_id, tenantId), inArray(u.email, chunk))),
		),
	)
	return new Map(rows.flat().map((r) => [r.email, r]))
}

import { and, asc, eq, getTableColumns, gt, gte, or, type SQL } from 'drizzle-orm'
import type { Database } from './client.ts'
import { erasedUsers } from './data-rights.ts'
import type { Role, TenantStatus } from './schema/values.ts'

/*
 * The REST API's lists (issue 49, decision 0071): keyset pages in id order within one tenant. The
 * cursor is the last id of the page before, so a row inserted while a client walks the list never
 * repeats or hides one it already had; rows added since show up in a later walk (updated_since).
 */

export interface Page {
	tenantId: string
	/** The last id of the previous page; '' for the first. */
	after: string
	/** Rows to return; one more is read to tell whether another page follows. */
	limit: number
}

/** The filters of the learning-record lists: one course, one person, or both; changed since an instant. */
export interface RecordFilters {
	courseSlug?: string
	userId?: string
	updatedSince?: Date
}

type Column = Parameters<typeof gt>[0]

const after = (column: Column, id: string) => (id ? [gt(column, id)] : [])

/** A learning record's page and filters as conditions: its tenant, past the cursor, of one course, of one person. */
function recordWhere(
	t: { tenant_id: Column; id: Column; course_slug: Column; user_id: Column },
	page: Page,
	filters: Pick<RecordFilters, 'courseSlug' | 'userId'>,
): SQL[] {
	const where: SQL[] = [eq(t.tenant_id, page.tenantId), ...after(t.id, page.after)]
	if (filters.courseSlug) where.push(eq(t.course_slug, filters.courseSlug))
	if (filters.userId) where.push(eq(t.user_id, filters.userId))
	return where
}

/** A page of the tenant's people, erased ones left out. */
export function apiUsers(db: Database, page: Page, filters: { email?: string; role?: Role; updatedSince?: Date }) {
	const u = db.t.users
	const where: SQL[] = [eq(u.tenant_id, page.tenantId), erasedUsers(db, false), ...after(u.id, page.after)]
	if (filters.email) where.push(eq(u.email, filters.email.trim().toLowerCase()))
	if (filters.role) where.push(eq(u.role, filters.role))
	if (filters.updatedSince) where.push(gte(u.updated_at, filters.updatedSince))
	return db.orm
		.select()
		.from(u)
		.where(and(...where))
		.orderBy(asc(u.id))
		.limit(page.limit + 1)
}

/** One person of the tenant (erased ones too: their row says so by its address). */
export async function apiUser(db: Database, tenantId: string, id: string) {
	const u = db.t.users
	if (id.includes('\u0000')) return null
	const [row] = await db.orm
		.select()
		.from(u)
		.where(and(eq(u.tenant_id, tenantId), eq(u.id, id), erasedUsers(db, false)))
		.limit(1)
	return row ?? null
}

/** A page of the tenant's enrollments, of one course or one person or both. */
export function apiEnrollments(db: Database, page: Page, filters: RecordFilters) {
	const e = db.t.enrollments
	const where = recordWhere(e, page, filters)
	// An enrollment changes when it is made or reactivated (enrolled_at) and when it is completed: either
	// time at or after the instant, so a sync of completions sees a course finished by an old enrollment.
	// A cancellation keeps no time: it is not seen here (the enrollment.removed webhook tells it).
	if (filters.updatedSince)
		where.push(or(gte(e.enrolled_at, filters.updatedSince), gte(e.completed_at, filters.updatedSince))!)
	return db.orm
		.select()
		.from(e)
		.where(and(...where))
		.orderBy(asc(e.id))
		.limit(page.limit + 1)
}

/** One enrollment of the tenant. */
export async function apiEnrollment(db: Database, tenantId: string, id: string) {
	const e = db.t.enrollments
	if (id.includes('\u0000')) return null
	const [row] = await db.orm
		.select()
		.from(e)
		.where(and(eq(e.tenant_id, tenantId), eq(e.id, id)))
		.limit(1)
	return row ?? null
}

/** A page of the tenant's certificates, of one course or one person or both. */
export function apiCertificates(db: Database, page: Page, filters: { courseSlug?: string; userId?: string }) {
	const c = db.t.certificates
	const where = recordWhere(c, page, filters)
	return db.orm
		.select()
		.from(c)
		.where(and(...where))
		.orderBy(asc(c.id))
		.limit(page.limit + 1)
}

/** One certificate of the tenant by its id. */
export async function apiCertificate(db: Database, tenantId: string, id: string) {
	const c = db.t.certificates
	if (id.includes('\u0000')) return null
	const [row] = await db.orm
		.select()
		.from(c)
		.where(and(eq(c.tenant_id, tenantId), eq(c.id, id)))
		.limit(1)
	return row ?? null
}

/**
 * A page of the tenant's quiz attempts, with the due date each was submitted against (decision
 * 0061). An attempt is written once, when submitted: `updatedSince` compares that time.
 */
export function apiQuizAttempts(db: Database, page: Page, filters: RecordFilters) {
	const { quiz_attempts: q, quiz_attempt_dues: d } = db.t
	const where = recordWhere(q, page, filters)
	if (filters.updatedSince) where.push(gte(q.submitted_at, filters.updatedSince))
	return db.orm
		.select({ ...getTableColumns(q), due_at: d.due_at, late: d.late })
		.from(q)
		.leftJoin(d, and(eq(d.attempt_id, q.id), eq(d.tenant_id, q.tenant_id)))
		.where(and(...where))
		.orderBy(asc(q.id))
		.limit(page.limit + 1)
}

/**
 * A page of the tenant's assignment submissions with their grades. A submission changes when it is
 * handed in and when it is graded or returned: `updatedSince` matches either time, so a sync sees a
 * grade given to an old hand-in.
 */
export function apiSubmissions(db: Database, page: Page, filters: RecordFilters) {
	const s = db.t.assignment_submissions
	const where = recordWhere(s, page, filters)
	if (filters.updatedSince)
		where.push(or(gte(s.submitted_at, filters.updatedSince), gte(s.graded_at, filters.updatedSince))!)
	return db.orm
		.select()
		.from(s)
		.where(and(...where))
		.orderBy(asc(s.id))
		.limit(page.limit + 1)
}

/**
 * A page of the platform's tenants (platform keys, decision 0087): every tenant, in id order past
 * the cursor, of one status, changed since an instant.
 */
export function apiTenants(
	db: Database,
	page: Omit<Page, 'tenantId'>,
	filters: { status?: TenantStatus; updatedSince?: Date },
) {
	const t = db.t.tenants
	const where: SQL[] = [...after(t.id, page.after)]
	if (filters.status) where.push(eq(t.status, filters.status))
	if (filters.updatedSince) where.push(gte(t.updated_at, filters.updatedSince))
	return db.orm
		.select()
		.from(t)
		.where(and(...where))
		.orderBy(asc(t.id))
		.limit(page.limit + 1)
}

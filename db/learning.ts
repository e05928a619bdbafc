import { and, eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { newId } from './ids.ts'
import type { EnrollmentStatus } from './schema/values.ts'

export type Enrollment = Database['t']['enrollments']['$inferSelect']

export interface Scope {
	tenantId: string
	userId: string
}

export async function findEnrollment(db: Database, scope: Scope, courseSlug: string) {
	const { enrollments: e } = db.t
	const [row] = await db.orm
		.select()
		.from(e)
		.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId), eq(e.course_slug, courseSlug)))
		.limit(1)
	return row ?? null
}

export async function listEnrollments(db: Database, scope: Scope) {
	const { enrollments: e } = db.t
	return db.orm
		.select()
		.from(e)
		.where(and(eq(e.tenant_id, scope.tenantId), eq(e.user_id, scope.userId)))
}

/** Sets the enrollment's status, creating the one row (tenant, user, course) if needed. */
export async function putEnrollment(db: Database, scope: Scope, courseSlug: string, status: EnrollmentStatus) {
	const now = new Date()
	const [row] = await db.orm
		.insert(db.t.enrollments)
		.values({ id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, status, enrolled_at: now })
		.onConflictDoUpdate({
			target: [db.t.enrollments.tenant_id, db.t.enrollments.user_id, db.t.enrollments.course_slug],
			set: { status },
		})
		.returning()
	return row
}

export async function markEntryCompleteRow(db: Database, scope: Scope, courseSlug: string, entrySlug: string, at = new Date()) {
	const { entry_progress: p } = db.t
	const [row] = await db.orm
		.insert(p)
		.values({
			id: newId(),
			tenant_id: scope.tenantId,
			user_id: scope.userId,
			course_slug: courseSlug,
			entry_slug: entrySlug,
			completed_at: at,
			last_viewed_at: at,
		})
		.onConflictDoUpdate({ target: [p.user_id, p.tenant_id, p.course_slug, p.entry_slug], set: { completed_at: at } })
		.returning()
	return row
}

export async function assignCourseAdmin(db: Database, scope: Scope, courseSlug: string, assignedBy: string | null) {
	const { course_admin_assignments: a } = db.t
	await db.orm
		.insert(a)
		.values({ id: newId(), tenant_id: scope.tenantId, user_id: scope.userId, course_slug: courseSlug, assigned_by: assignedBy })
		.onConflictDoNothing({ target: [a.user_id, a.tenant_id, a.course_slug] })
}

export async function assignedCourseSlugs(db: Database, scope: Scope) {
	const { course_admin_assignments: a } = db.t
	const rows = await db.orm
		.select({ slug: a.course_slug })
		.from(a)
		.where(and(eq(a.tenant_id, scope.tenantId), eq(a.user_id, scope.userId)))
	return rows.map((r) => r.slug)
}

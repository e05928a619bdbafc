import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { Database } from './client.ts'

// Staff who opted into a notice per hand-in (decision 0028). One statement each.

export interface WatchScope {
	tenantId: string
	userId: string
	courseSlug: string
}

export async function isWatching(db: Database, scope: WatchScope) {
	const w = db.t.submission_watchers
	const [row] = await db.orm
		.select({ userId: w.user_id })
		.from(w)
		.where(and(eq(w.tenant_id, scope.tenantId), eq(w.course_slug, scope.courseSlug), eq(w.user_id, scope.userId)))
		.limit(1)
	return Boolean(row)
}

/** Turns the notice on or off; setting what is already set changes nothing (ON CONFLICT). */
export async function setWatching(db: Database, scope: WatchScope, on: boolean) {
	const w = db.t.submission_watchers
	if (on) {
		await db.orm
			.insert(w)
			.values({ tenant_id: scope.tenantId, course_slug: scope.courseSlug, user_id: scope.userId })
			.onConflictDoNothing()
		return
	}
	await db.orm
		.delete(w)
		.where(and(eq(w.tenant_id, scope.tenantId), eq(w.course_slug, scope.courseSlug), eq(w.user_id, scope.userId)))
}

/**
 * Who is to be told of a hand-in to the course: watchers who may still grade it, read in the same
 * statement as the opt-in so that a revoked assignment, a changed role or a deactivated account
 * stops the mail at once without anyone cleaning up the watcher row.
 */
export async function submissionWatchers(db: Database, tenantId: string, courseSlug: string) {
	const w = db.t.submission_watchers
	const u = db.t.users
	const a = db.t.course_admin_assignments
	const assigned = sql`exists (select 1 from ${a} where ${a.tenant_id} = ${w.tenant_id}
		and ${a.user_id} = ${w.user_id} and ${a.course_slug} = ${w.course_slug})`
	return db.orm
		.select({ userId: u.id, email: u.email, name: u.name, locale: u.locale })
		.from(w)
		.innerJoin(u, eq(u.id, w.user_id))
		.where(
			and(
				eq(w.tenant_id, tenantId),
				eq(w.course_slug, courseSlug),
				isNull(u.deactivated_at),
				or(
					eq(u.role, 'super_admin'),
					and(eq(u.role, 'tenant_admin'), eq(u.tenant_id, tenantId)),
					and(eq(u.role, 'course_admin'), eq(u.tenant_id, tenantId), assigned),
				),
			),
		)
}

import { and, eq, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { latestOf } from './grading.ts'
import { inListParam, listParam } from './learning.ts'

// What the course dashboard and the CSV export read of assignment hand-ins (decision 0029). Both
// look at each learner's newest submission per entry only: an earlier one that was returned for
// revision has been superseded by the resubmission, and counting it too would count the learner twice.

export interface AssignmentFigures {
	entrySlug: string
	awaiting: number
	returned: number
	graded: number
	passed: number
	/** Averages over graded submissions with a score; null when none has one. */
	averageScore: number | null
	averageMax: number | null
	/** The average of score / max_score (0 to 1): right even if the content's maximum changed between grades. */
	averageRatio: number | null
}

/**
 * Per-entry figures of a course's hand-ins, counted on read (not from stats_counters, decision 0029):
 * one grouped statement over the course's rows of assignment_submissions_queue_idx, each row checked
 * against the unique (user, tenant, course, entry, number) index for a newer one. Its cost follows
 * the course's submissions, never the tenant's.
 */
export async function assignmentFigures(db: Database, tenantId: string, courseSlug: string) {
	return (await figuresOf(db).execute({ tenantId, courseSlug })) satisfies AssignmentFigures[]
}
const figuresOf = preparedFor((db) => {
	const s = db.t.assignment_submissions
	const counted = (condition: ReturnType<typeof and>) =>
		sql<number>`count(*) filter (where ${condition})`.mapWith(Number)
	const scored = and(eq(s.status, 'graded'), sql`${s.score} is not null`, sql`${s.max_score} > 0`)
	const average = (value: ReturnType<typeof sql>) =>
		sql<number | null>`avg(${value}) filter (where ${scored})`.mapWith((v) => (v === null ? null : Number(v)))
	return db.orm
		.select({
			entrySlug: s.entry_slug,
			awaiting: counted(eq(s.status, 'submitted')),
			returned: counted(eq(s.status, 'returned')),
			graded: counted(eq(s.status, 'graded')),
			passed: counted(and(eq(s.status, 'graded'), eq(s.passed, true))),
			averageScore: average(sql`${s.score}`),
			averageMax: average(sql`${s.max_score}`),
			// 1.0 * keeps SQLite from dividing integers.
			averageRatio: average(sql`1.0 * ${s.score} / ${s.max_score}`),
		})
		.from(s)
		.where(latestOf(db, sql.placeholder('tenantId'), sql.placeholder('courseSlug')))
		.groupBy(s.entry_slug)
		.prepare('assignment_figures')
})

/** A learner's newest submission of an entry, as the roster and the export show it. */
export interface LatestSubmission {
	userId: string
	entrySlug: string
	submissionNumber: number
	status: 'submitted' | 'returned' | 'graded'
	score: number | null
	maxScore: number | null
	passed: boolean | null
	/** Handed in after its due date (decision 0045), as stored at hand-in time. */
	late: boolean
}

/** The newest submission per entry of these learners of a course (a roster page, the export). */
export async function latestSubmissions(
	db: Database,
	tenantId: string,
	courseSlug: string,
	userIds: string[],
): Promise<LatestSubmission[]> {
	return latestOfLearners(db).execute({ tenantId, courseSlug, userIds: listParam(db, userIds) })
}
const latestOfLearners = preparedFor((db) => {
	const s = db.t.assignment_submissions
	return db.orm
		.select({
			userId: s.user_id,
			entrySlug: s.entry_slug,
			submissionNumber: s.submission_number,
			status: s.status,
			score: s.score,
			maxScore: s.max_score,
			passed: s.passed,
			late: s.late,
		})
		.from(s)
		.where(
			latestOf(db, sql.placeholder('tenantId'), sql.placeholder('courseSlug'), inListParam(db, s.user_id, 'userIds')),
		)
		.prepare('latest_submissions_of')
})

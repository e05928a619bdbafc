import { and, asc, desc, eq, inArray, isNull, lt, max, sql } from 'drizzle-orm'
import { preparedFor, type Database } from './client.ts'
import { entryAllowanceSteps } from './course-results.ts'
import { isLate } from './due-dates.ts'
import { newId } from './ids.ts'
import { inScope, type Scope } from './learning.ts'
import { step, type Tx } from './transaction.ts'

// Assignment hand-ins and their files (decision 0027). Written once for both dialects, like
// db/learning.ts: single statements or the steps of one transaction. Grading them is db/grading.ts.

export type Submission = Database['t']['assignment_submissions']['$inferSelect']
type SubmissionFile = Database['t']['submission_files']['$inferSelect']

/** A submission with its files' metadata (never their bodies). */
export type SubmissionWithFiles = Submission & { files: SubmissionFile[] }

/**
 * A file being handed in: its row exists, with no submission, while the body streams into the
 * file store. Size and checksum are filled in when the body is complete.
 */
export async function createFileRow(
	db: Database,
	scope: Scope,
	file: { id: string; fileName: string; contentType: string },
) {
	await db.orm.insert(db.t.submission_files).values({
		id: file.id,
		tenant_id: scope.tenantId,
		user_id: scope.userId,
		file_name: file.fileName,
		content_type: file.contentType,
		size_bytes: 0,
		sha256: '',
	})
}

export async function finishFileRow(db: Database, id: string, sizeBytes: number, sha256: string) {
	const f = db.t.submission_files
	await db.orm.update(f).set({ size_bytes: sizeBytes, sha256 }).where(eq(f.id, id))
}

/**
 * Deletes the rows of files no submission claimed (a refused, failed or cut off hand-in) and
 * answers their ids, so that the caller removes their bodies from the file store. The database
 * store's chunks go with the rows (ON DELETE CASCADE).
 */
export async function deleteUnclaimedFiles(db: Database, scope: Scope, ids: string[]): Promise<string[]> {
	if (ids.length === 0) return []
	const f = db.t.submission_files
	const gone = await db.orm
		.delete(f)
		.where(
			and(inArray(f.id, ids), eq(f.tenant_id, scope.tenantId), eq(f.user_id, scope.userId), isNull(f.submission_id)),
		)
		.returning({ id: f.id })
	return gone.map((row) => row.id)
}

/**
 * Deletes up to `limit` rows of files still unclaimed that were created before `before`, in any
 * tenant: hand-ins whose own clean-up could not run (the process stopped, the database failed
 * meanwhile). Answers their ids, like deleteUnclaimedFiles. Found through the submission_id index
 * (unclaimed rows are the few files streaming in right now).
 */
export async function deleteStaleUnclaimedFiles(db: Database, before: Date, limit = 100): Promise<string[]> {
	const f = db.t.submission_files
	const stale = and(isNull(f.submission_id), lt(f.created_at, before))
	const gone = await db.orm
		.delete(f)
		.where(and(stale, inArray(f.id, db.orm.select({ id: f.id }).from(f).where(stale).limit(limit))))
		.returning({ id: f.id })
	return gone.map((row) => row.id)
}

export interface SubmissionInput {
	/** Derived from the form's submission key: the same form sent twice is one submission. */
	id?: string
	text: string | null
	link: string | null
	fileIds: string[]
	/** The entry's due date in force for the learner now (decision 0045); the hand-in stores it and whether it is late. */
	dueAt?: Date | null
}

type RecordedSubmission =
	| { kind: 'recorded'; submission: Submission; replayed: boolean }
	/** A final grade ends hand-ins for the entry. */
	| { kind: 'final' }

/**
 * A grade that ends hand-ins (decision 0030): a graded submission that passed, or feedback on an
 * ungraded assignment (passed null). A grade that did not pass lets the learner hand in again, as
 * a return does. The same rule as isFinalGrade (app/learning/assignments.server.ts), in SQL.
 */
function finalGrade(db: Tx) {
	const s = db.t.assignment_submissions
	return sql`${s.status} = 'graded' and ${s.passed} is not false`
}

/** The first key of the advisory locks below (the migrations hold 727001, a one-key lock: another key space). */
const HAND_IN_LOCK_CLASS = 727002

/**
 * Serialises, on PostgreSQL, the transactions that hand in or grade one learner's work on one
 * entry, until the caller's transaction ends. Under read committed the hand-in's "no final grade
 * yet" check and its insert are separate statements, as are the grade's "newest submission" check
 * and its update's commit: without it a grade could land on submission n while n+1 is stored, and
 * a hand-in after a final grade. Each statement after the lock sees what the other committed.
 * SQLite needs none: its write transactions run one at a time (BEGIN IMMEDIATE).
 */
export function* lockLearnerEntry(
	db: Tx,
	work: Pick<Submission, 'tenant_id' | 'user_id' | 'course_slug' | 'entry_slug'>,
) {
	if (db.dialect !== 'pg') return
	const key = `${work.tenant_id}\n${work.user_id}\n${work.course_slug}\n${work.entry_slug}`
	yield* step(db.orm.execute(sql`select pg_advisory_xact_lock(${HAND_IN_LOCK_CLASS}, hashtext(${key}))`))
}

/**
 * The highest hand-in number of the learner's entry, and how many of its hand-ins have a final grade
 * since the entry's last reopening (staff may reopen an assignment after a final grade, decision 0037:
 * only grades after that count).
 */
function* tallySteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string) {
	const { reopenedAfter } = yield* entryAllowanceSteps(db, scope, courseSlug, entrySlug)
	const s = db.t.assignment_submissions
	const [row] = yield* step(
		db.orm
			.select({
				highest: max(s.submission_number),
				final:
					sql<number>`count(*) filter (where ${finalGrade(db)} and ${s.submission_number} > ${reopenedAfter})`.mapWith(
						Number,
					),
			})
			.from(s)
			.where(
				and(
					eq(s.tenant_id, scope.tenantId),
					eq(s.user_id, scope.userId),
					eq(s.course_slug, courseSlug),
					eq(s.entry_slug, entrySlug),
				),
			),
	)
	return { highest: row?.highest ?? 0, final: row?.final ?? 0 }
}

/**
 * The highest hand-in number of an assignment entry that a final grade closed since its last
 * reopening, or null while it is open (its learner may hand in already: nothing to reopen).
 */
export function* assignmentClosedAtSteps(db: Tx, scope: Scope, courseSlug: string, entrySlug: string) {
	const { highest, final } = yield* tallySteps(db, scope, courseSlug, entrySlug)
	return final === 0 ? null : highest
}

/**
 * Stores the learner's next submission: number = highest so far + 1, like quiz attempts
 * (recordAttemptSteps): two hand-ins that picked the same number collide on the unique key and
 * the loser takes the next one, so numbers stay 1..n without gaps. Its files, streamed in before,
 * are claimed in the same transaction, so a stored submission never lacks a file it was told it
 * has. Refused once a submission of the entry has a final grade (one after the entry's last reopening).
 */
export function* recordSubmissionSteps(
	db: Tx,
	scope: Scope,
	courseSlug: string,
	entrySlug: string,
	input: SubmissionInput,
) {
	const s = db.t.assignment_submissions
	const mine = and(
		eq(s.tenant_id, scope.tenantId),
		eq(s.user_id, scope.userId),
		eq(s.course_slug, courseSlug),
		eq(s.entry_slug, entrySlug),
	)
	yield* lockLearnerEntry(db, {
		tenant_id: scope.tenantId,
		user_id: scope.userId,
		course_slug: courseSlug,
		entry_slug: entrySlug,
	})
	function* stored() {
		if (!input.id) return null
		const [row] = yield* step(
			db.orm
				.select()
				.from(s)
				.where(and(mine, eq(s.id, input.id)))
				.limit(1),
		)
		return row ?? null
	}
	const earlier = yield* stored()
	if (earlier) return { kind: 'recorded', submission: earlier, replayed: true } as RecordedSubmission
	const now = new Date()
	const dueAt = input.dueAt ?? null
	for (;;) {
		const { highest, final } = yield* tallySteps(db, scope, courseSlug, entrySlug)
		if (final > 0) return { kind: 'final' } as RecordedSubmission
		const [row] = yield* step(
			db.orm
				.insert(s)
				.values({
					id: input.id ?? newId(),
					tenant_id: scope.tenantId,
					user_id: scope.userId,
					course_slug: courseSlug,
					entry_slug: entrySlug,
					submission_number: highest + 1,
					text_answer: input.text,
					link_url: input.link,
					submitted_at: now,
					// Lateness as it stands at hand-in time, kept: later extensions do not rewrite it.
					due_at: dueAt,
					late: isLate(dueAt, now),
				})
				.onConflictDoNothing()
				.returning(),
		)
		if (row) {
			yield* claimFilesSteps(db, scope, row.id, input.fileIds)
			return { kind: 'recorded', submission: row, replayed: false } as RecordedSubmission
		}
		const twin = yield* stored()
		if (twin) return { kind: 'recorded', submission: twin, replayed: true } as RecordedSubmission
	}
}

/** A new submission takes the files streamed in for it: this request's own, not yet claimed. */
function* claimFilesSteps(db: Tx, scope: Scope, submissionId: string, fileIds: string[]) {
	if (fileIds.length === 0) return
	const f = db.t.submission_files
	const claimed = yield* step(
		db.orm
			.update(f)
			.set({ submission_id: submissionId })
			.where(
				and(
					inArray(f.id, fileIds),
					eq(f.tenant_id, scope.tenantId),
					eq(f.user_id, scope.userId),
					isNull(f.submission_id),
				),
			)
			.returning({ id: f.id }),
	)
	// Only this request's own unclaimed files: anything else is a bug, and the transaction undoes the row.
	if (claimed.length !== fileIds.length) throw new Error('hand-in files were not all claimed')
}

/** The learner's submissions of one entry, oldest first, with their files. */
export async function listSubmissions(
	db: Database,
	scope: Scope,
	courseSlug: string,
	entrySlug: string,
): Promise<SubmissionWithFiles[]> {
	const s = db.t.assignment_submissions
	const rows = await db.orm
		.select()
		.from(s)
		.where(
			and(
				eq(s.tenant_id, scope.tenantId),
				eq(s.user_id, scope.userId),
				eq(s.course_slug, courseSlug),
				eq(s.entry_slug, entrySlug),
			),
		)
		.orderBy(asc(s.submission_number))
	return withFiles(db, scope.tenantId, rows)
}

async function withFiles(db: Database, tenantId: string, rows: Submission[]): Promise<SubmissionWithFiles[]> {
	if (rows.length === 0) return []
	const f = db.t.submission_files
	const files = await db.orm
		.select()
		.from(f)
		.where(
			and(
				eq(f.tenant_id, tenantId),
				inArray(
					f.submission_id,
					rows.map((r) => r.id),
				),
			),
		)
		.orderBy(asc(f.created_at), asc(f.file_name))
	return rows.map((r) => ({ ...r, files: files.filter((file) => file.submission_id === r.id) }))
}

/** A file and the submission it belongs to, for the download route's access check. */
export async function findSubmissionFile(db: Database, tenantId: string, fileId: string) {
	// No stored id contains NUL, and PostgreSQL refuses it in a query parameter (as findUserById).
	if (fileId.includes('\u0000')) return null
	const f = db.t.submission_files
	const s = db.t.assignment_submissions
	const [row] = await db.orm
		.select({ file: f, submission: s })
		.from(f)
		.innerJoin(s, and(eq(s.id, f.submission_id), eq(s.tenant_id, f.tenant_id)))
		.where(and(eq(f.tenant_id, tenantId), eq(f.id, fileId)))
		.limit(1)
	return row ?? null
}

/** The learner's newest graded or returned submissions across courses, for the dashboard. */
export async function recentlyGraded(db: Database, scope: Scope, limit = 5) {
	return recentlyGradedOf(db).execute({ ...scope, limit })
}
const recentlyGradedOf = preparedFor((db) => {
	const s = db.t.assignment_submissions
	return db.orm
		.select()
		.from(s)
		.where(inScope(s, inArray(s.status, ['graded', 'returned'])))
		.orderBy(desc(s.graded_at))
		.limit(sql.placeholder('limit'))
		.prepare('recently_graded_of')
})

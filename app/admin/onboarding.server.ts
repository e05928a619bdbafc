import { usersByEmails } from '#db/admin.ts'
import { auditManySteps } from '#db/audit.ts'
import { assignedCourseSlugs, findEnrollment } from '#db/learning.ts'
import { INVITABLE_ROLES, ROLES } from '#db/schema/values.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'
import { findUserById } from '#db/users.ts'
import { localePath } from '#app/i18n/locales.ts'
import { invitableCourses, offerInvitationsSteps } from '../accounts/invitations.server.ts'
import { recipientMailContext, siteName } from '../content/site.server.ts'
import { composeEmail, deliver, type MailContext } from '../platform/emails.server.ts'
import { ADMIN_EMAILS } from './emails.ts'
import { absoluteUrl } from '../platform/forms.server.ts'
import { jobSite } from '../platform/jobs.server.ts'
import type { AdminJobPayloads } from './jobs.server.ts'
import { emailField, nameField } from '../platform/validation.ts'
import { readLanguage } from './email-list.server.ts'
import { seatRefusalSteps } from '#db/seats.ts'
import { isPaid, type CourseSummary } from '../content/content.ts'
import type { Locale } from '#db/schema/values.ts'
import type { AdminScope } from './admin.server.ts'
import { adminAudit } from '../platform/audit.server.ts'
import { describeError, log } from '../platform/log.server.ts'

/*
 * Onboarding many people at once (decision 0040): the invite page's lists. Each row becomes one
 * invitation (new or refreshed), or is reported as why not; the invitations of a chunk of rows, with
 * their courses, audit rows and mail jobs, are one transaction (decision 0059).
 */

/** What became of one row of an invitation list (catalogue keys `admin.invite.outcomes.*`). */
export type InviteOutcome =
	| 'invited'
	| 'refreshed'
	| 'memberInvited'
	| 'member'
	| 'deactivated'
	| 'invalid'
	| 'duplicate'
	| 'unknownRole'
	| 'roleNotAllowed'
	| 'unknownCourse'
	| 'courseNeeded'
	/** A language cell that names no supported language (decision 0065): not invited, never guessed. */
	| 'unknownLanguage'
	/** A paid course it would enroll in has no free seat (decision 0065): not invited. */
	| 'courseFull'
	/** In a chunk that failed, or after it (decision 0059): nothing written, nothing mailed. */
	| 'notStored'

export interface InviteReportRow {
	/** The file's line, or the position in the paste. */
	row: number
	/** The address as given, cut to a length a table can show (shown as text, never as markup). */
	value: string
	outcome: InviteOutcome
	/** The invitation made or refreshed. */
	invitationId?: string
	/** The member the address already belongs to. */
	userId?: string
}

export interface InviteRequest {
	row: number
	email: string
	name: string
	/** A role code, '' for the form's default. */
	role: string
	/** A course slug, '' for none. */
	course: string
	/** The invitee's language as the list wrote it, '' for the inviter's page language (readLanguage). */
	language: string
}

const SHOWN = 120
const shown = (value: string) => (value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value)
const RANK = { student: 0, course_admin: 1, tenant_admin: 2, super_admin: 3 } as const
/** Role cells as people write them: the codes, spaces or dashes for underscores, "learner". */
const ROLE_WORDS: Record<string, (typeof ROLES)[number]> = {
	learner: 'student',
	...Object.fromEntries(ROLES.map((r) => [r, r])),
}
const readRole = (cell: string) =>
	ROLE_WORDS[
		cell
			.trim()
			.toLowerCase()
			.replace(/[\s-]+/g, '_')
	]

/** One row's invitation as the chunk's transaction writes it. */
interface Offer {
	/** The carried course is paid: the invitation is sent only while one of its seats is free. */
	paid: boolean
	email: string
	role: (typeof INVITABLE_ROLES)[number]
	courseSlug: string | null
	name: string | null
	/** The row's language; null: the inviter's page language (the job's). */
	locale: Locale | null
	carried: string[]
}

/** Invitations (new or refreshed) with their audit rows, as steps of the chunk's transaction; their mails are jobs of it. */
function* sendInvitationsSteps(tx: Tx, scope: AdminScope, tenant: Tenant, offers: Offer[]) {
	const sent = yield* offerInvitationsSteps(
		tx,
		jobSite(scope.ctx),
		offers.map(({ email, role, courseSlug, name, locale, carried }) => ({
			input: { tenantId: tenant.id, email, role, courseSlug, name, locale, invitedBy: scope.session.user.id },
			courses: carried,
		})),
	)
	yield* auditManySteps(
		tx,
		sent.map(({ invitation, refreshed }, k) => {
			const { email, role, courseSlug, carried } = offers[k]
			return adminAudit(
				scope,
				refreshed ? 'invitation.refreshed' : 'invitation.sent',
				{ kind: 'invitation', id: invitation.id, tenantId: tenant.id },
				{ email, role, courseSlug, ...(carried.length ? { courses: carried } : {}) },
			)
		}),
	)
	return sent
}

/** The role and course a row asks for, within what the inviter may give; else the row's outcome. */
function askedFor(
	request: InviteRequest,
	defaults: { role: (typeof INVITABLE_ROLES)[number]; course: string },
	inviterRank: number,
	courses: ReadonlyMap<string, CourseSummary>,
) {
	const named = request.role ? readRole(request.role) : defaults.role
	if (!named) return { outcome: 'unknownRole' as const }
	// Never a role above the inviter's, nor one an invitation does not offer (super admin).
	const role = INVITABLE_ROLES.find((r) => r === named && RANK[r] <= inviterRank)
	if (!role) return { outcome: 'roleNotAllowed' as const }
	const course = request.course ? request.course.trim() : request.role ? '' : defaults.course
	// Another tenant's slug, a draft or a typo: all the same here.
	if (course && !courses.has(course)) return { outcome: 'unknownCourse' as const }
	if (role === 'course_admin' && !course) return { outcome: 'courseNeeded' as const }
	return { role, course }
}

/**
 * Rows of a list written by one transaction (decision 0059): a chunk is stored whole or not at all,
 * and a list of 10,000 rows holds no write lock (SQLite: the event loop) for longer than one chunk.
 */
const INVITE_CHUNK = 500

/** What a list's rows became; `notStoredFrom`: the first row of the chunk that failed, when one did. */
export interface InviteResult {
	report: InviteReportRow[]
	notStoredFrom: number | null
}

/**
 * Invites the rows' people to this tenant, each reported, a chunk of rows at a time (decision 0059).
 * An address that already signs in here (proven) is invited only when the invitation would give it
 * something (a higher role, or a course to administer): otherwise it is reported as a member and
 * nothing is sent. A learner row's course is an enrollment the invitation carries (a paid course's
 * is a seat, decision 0040); a course admin row's is the course to administer. Repeated addresses
 * after the first are reported. A chunk that fails ends the list: its rows and every later one are
 * reported `notStored` (nothing written, nothing mailed); a failure of the first chunk, when nothing
 * was stored, is thrown (the database's answer).
 */
export async function inviteRows(
	scope: AdminScope,
	tenant: Tenant,
	rows: InviteRequest[],
	defaults: { role: (typeof INVITABLE_ROLES)[number]; course: string },
): Promise<InviteResult> {
	const list: ListState = {
		courses: new Map((await invitableCourses(scope.ctx)).map((c) => [c.slug, c])),
		seen: new Set<string>(),
		defaults,
	}
	const report: InviteReportRow[] = []
	for (let start = 0; start < rows.length; start += INVITE_CHUNK) {
		const chunk = rows.slice(start, start + INVITE_CHUNK)
		try {
			report.push(...(await inviteChunk(scope, tenant, chunk, list)))
		} catch (error) {
			if (start === 0) throw error
			log.error('invitations/chunk-failed', {
				row: chunk[0].row,
				rows: rows.length - start,
				error: describeError(error),
			})
			for (const r of rows.slice(start)) report.push({ row: r.row, value: shown(r.email), outcome: 'notStored' })
			return { report, notStoredFrom: chunk[0].row }
		}
	}
	return { report, notStoredFrom: null }
}

/** What a list's chunks share: the courses an invitation may name, the addresses seen so far, the form's defaults. */
interface ListState {
	courses: ReadonlyMap<string, CourseSummary>
	seen: Set<string>
	defaults: { role: (typeof INVITABLE_ROLES)[number]; course: string }
}

/** An account of the tenant with a listed address. */
type Member = NonNullable<ReturnType<Awaited<ReturnType<typeof usersByEmails>>['get']>>

/** A row judged: its report line, and the invitation to write when it gets one. */
interface Judged {
	line: InviteReportRow
	offer?: Offer
	member?: boolean
}

/** What one row of a list becomes, read but not written: a reason not to invite, or the invitation to write. */
async function judgeRow(
	scope: AdminScope,
	tenant: Tenant,
	request: InviteRequest,
	parsed: ReturnType<typeof emailField.safeParse>,
	member: Member | undefined,
	list: ListState,
): Promise<Judged> {
	const line: InviteReportRow = { row: request.row, value: shown(request.email), outcome: 'invited' }
	const outcome = (o: InviteOutcome, userId?: string): Judged => ({ line: { ...line, outcome: o, userId } })
	if (!parsed.success) return outcome('invalid')
	const email = parsed.data
	if (list.seen.has(email)) return outcome('duplicate')
	list.seen.add(email)
	const asked = askedFor(request, list.defaults, RANK[scope.session.user.role], list.courses)
	if (asked.outcome) return outcome(asked.outcome)
	const { role, course } = asked
	const locale = readLanguage(request.language)
	if (locale === 'unknown') return outcome('unknownLanguage')
	if (member?.deactivatedAt) return outcome('deactivated', member.id)
	if (member?.verifiedAt) {
		const gives =
			RANK[role] > RANK[member.role] ||
			(role === 'course_admin' &&
				member.role === 'course_admin' &&
				!(await assignedCourseSlugs(scope.ctx.db, { tenantId: tenant.id, userId: member.id })).includes(course))
		if (!gives) return outcome('member', member.id)
	}
	// A name the account could not have (too long, control characters) is not kept: the invitee types theirs.
	const name = nameField.safeParse(request.name)
	return {
		line,
		member: Boolean(member?.verifiedAt),
		offer: {
			email,
			role,
			courseSlug: role === 'course_admin' ? course : null,
			name: name.success ? name.data : null,
			locale,
			paid: role !== 'course_admin' && Boolean(course) && isPaid(list.courses.get(course)!),
			carried: role !== 'course_admin' && course ? [course] : [],
		},
	}
}

/** One chunk of a list: each row judged (reads), then every invitation of it written by one transaction. */
async function inviteChunk(scope: AdminScope, tenant: Tenant, chunk: InviteRequest[], list: ListState) {
	const { ctx } = scope
	const emails = chunk.map((r) => emailField.safeParse(r.email))
	const members = await usersByEmails(
		ctx.db,
		tenant.id,
		emails.flatMap((e) => (e.success ? [e.data] : [])),
	)
	const lines: Judged[] = []
	for (const [i, request] of chunk.entries())
		lines.push(await judgeRow(scope, tenant, request, emails[i], members.get(emails[i].data ?? ''), list))
	// Every invitation of the chunk, with its courses, audit row and mail job: stored together or not at
	// all, a few statements for the whole chunk.
	const sent = await inTransaction(ctx.db, function* (tx) {
		const out: Array<{ invitation: { id: string }; refreshed: boolean } | 'full' | null> = lines.map(() => null)
		const free: number[] = []
		for (const [k, { offer }] of lines.entries()) {
			if (!offer) continue
			if (!offer.paid) free.push(k)
			// A paid course's seats are counted with the invitations written before: one at a time. A full
			// course is refused now rather than at acceptance: nobody could take the seat.
			else if (yield* seatRefusalSteps(tx, { tenantId: tenant.id, userId: null }, offer.carried[0])) out[k] = 'full'
			else [out[k]] = yield* sendInvitationsSteps(tx, scope, tenant, [offer])
		}
		const batch = yield* sendInvitationsSteps(
			tx,
			scope,
			tenant,
			free.map((k) => lines[k].offer!),
		)
		for (const [n, k] of free.entries()) out[k] = batch[n]
		return out
	})
	return lines.map(({ line, member }, i) => {
		const offer = sent[i]
		if (!offer) return line
		if (offer === 'full') return { ...line, outcome: 'courseFull' as const }
		const outcome: InviteOutcome = member ? 'memberInvited' : offer.refreshed ? 'refreshed' : 'invited'
		return { ...line, outcome, invitationId: offer.invitation.id }
	})
}

/**
 * The learner is told, in their locale, that an admin enrolled them, with the course's link; nothing
 * when the enrollment is no longer active or the account is gone or deactivated (a job, decision 0033).
 */
export async function mailEnrollment(ctx: MailContext, job: AdminJobPayloads['mail.enrolled']) {
	const learner = await findUserById(ctx.db, job.userId)
	if (!learner || learner.deactivated_at || learner.tenant_id !== job.tenantId)
		return 'the learner is gone or deactivated'
	const enrollment = await findEnrollment(ctx.db, { tenantId: job.tenantId, userId: learner.id }, job.courseSlug)
	if (enrollment?.status !== 'active') return 'the enrollment is no longer active'
	let title = job.title
	try {
		title = (await ctx.cms.course(ctx.site, job.courseSlug, learner.locale))?.title ?? title
	} catch {
		// The title the request had.
	}
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(ADMIN_EMAILS, {
			kind: 'enrolled_by_admin',
			to: learner.email,
			locale: learner.locale,
			site: await siteName(to, learner.locale),
			url: absoluteUrl(to, localePath(learner.locale, `/learn/course/${job.courseSlug}`)),
			values: { course: title },
		}),
	)
}

import type { RequestContext } from '#app/context.ts'
import { auditNames, enrollmentSubjects, listAudit, type AuditFilters } from '#db/admin.ts'

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number]
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** A person as an admin reads them: name and email, or the stored id when the account is gone or out of scope. */
export type Person = { name: string; email: string } | { id: string }

/** A row told in a sentence of the catalogue (`key`), its people named and its numbers filled in by the page. */
export interface AuditSummary {
	key: string
	people: Record<string, Person>
	values: Record<string, string>
	numbers: Record<string, number>
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/**
 * Grading rows (decision 0028) in words: whose submission, which one of which entry, the score
 * and the verdict, from the metadata gradeSubmissionSteps stores.
 */
function gradingSummary(row: AuditRow, person: (id: string) => Person): AuditSummary | null {
	if (row.action !== 'submission.graded' && row.action !== 'submission.returned') return null
	const md = row.metadata
	const learner = isString(md.learnerUserId) ? person(md.learnerUserId) : { id: row.target_id ?? '' }
	const entry = [md.courseSlug, md.entrySlug].filter(isString).join('/')
	const score = num(md.score)
	const max = num(md.maxScore)
	const key =
		row.action === 'submission.returned'
			? 'returned'
			: score === null || max === null
				? 'reviewed'
				: md.passed === true
					? 'gradedPassed'
					: md.passed === false
						? 'gradedFailed'
						: 'graded'
	return {
		key: `grading.audit.${key}`,
		people: { learner },
		values: { entry },
		numbers: { number: num(md.submissionNumber) ?? 0, score: score ?? 0, max: max ?? 0 },
	}
}

/**
 * Audit rows as an admin reads them (the admin home's recent activity and the audit log): who did
 * what to whom by name and email, each tenant by name, and the metadata as fields, its ids of
 * people (an impersonator) named too. An enrollment is named by its learner (the course is in the
 * row's metadata, `courseSlug`).
 */
export async function readableAudit(ctx: RequestContext, filters: AuditFilters) {
	const rows = await listAudit(ctx.db, filters)
	const enrollments = await enrollmentSubjects(ctx.db, filters.tenantId, [
		...new Set(rows.flatMap((r) => (r.target_kind === 'enrollment' && r.target_id ? [r.target_id] : []))),
	])
	const learnerOf = (r: AuditRow) =>
		r.target_kind === 'enrollment' && r.target_id ? (enrollments.get(r.target_id)?.userId ?? null) : null
	const metadataIds = (row: AuditRow) => Object.entries(row.metadata).filter(([k, v]) => /Id$/.test(k) && isString(v))
	const userIds = rows.flatMap((r) => [
		r.actor_user_id,
		r.target_kind === 'user' ? r.target_id : null,
		learnerOf(r),
		...metadataIds(r).map(([, v]) => v as string),
	])
	const tenantIds = rows.flatMap((r) => [r.tenant_id, r.target_kind === 'tenant' ? r.target_id : null])
	const names = await auditNames(
		ctx.db,
		filters.tenantId,
		[...new Set(userIds.filter(isString))],
		[...new Set(tenantIds.filter(isString))],
	)
	const targetLabel = (r: AuditRow) => {
		if (r.target_kind === 'user') return null
		if (r.target_kind === 'tenant' && r.target_id) return names.tenants.get(r.target_id) ?? r.target_id
		// An invitation is known by its address: a revoked one no longer exists to be looked up.
		if (r.target_kind === 'invitation' && isString(r.metadata.email)) return r.metadata.email
		return r.target_id
	}
	const person = (id: string): Person => {
		const p = names.people.get(id)
		return p ? { name: p.name, email: p.email } : { id }
	}
	return rows.map((r) => ({
		id: r.id,
		at: r.created_at.toISOString(),
		action: r.action,
		actor: r.actor_user_id ? person(r.actor_user_id) : null,
		summary: gradingSummary(r, person),
		target: {
			kind: r.target_kind,
			person:
				r.target_kind === 'user' && r.target_id
					? person(r.target_id)
					: r.target_kind === 'submission' && isString(r.metadata.learnerUserId)
						? person(r.metadata.learnerUserId)
						: learnerOf(r)
							? person(learnerOf(r)!)
							: null,
			label: targetLabel(r),
		},
		tenant: r.tenant_id ? (names.tenants.get(r.tenant_id) ?? r.tenant_id) : null,
		details: Object.entries(r.metadata).map(([key, value]) => ({
			key,
			value:
				/Id$/.test(key) && isString(value) ? person(value) : typeof value === 'string' ? value : JSON.stringify(value),
		})),
	}))
}

import type { RequestContext } from '#app/context.ts'
import { auditNames, enrollmentSubjects, listAudit, type AuditFilters } from '#db/audit.ts'
import {
	ENROLLMENT_STATUSES,
	ROLES,
	TENANT_STATUSES,
	type EnrollmentStatus,
	type Role,
	type TenantStatus,
} from '#db/schema/values.ts'
import { readCatalogue } from '../content/cms.server.ts'
import { WITHDRAWAL_REASONS, type WithdrawalReason } from '#db/invitations.ts'

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number]
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0
const oneOf =
	<T extends string>(values: readonly T[]) =>
	(v: unknown): v is T =>
		typeof v === 'string' && (values as readonly string[]).includes(v)

/** A person as an admin reads them: name and email, or the stored id when the account is gone or out of scope. */
export type Person = { name: string; email: string } | { id: string }

/**
 * A stored value as an admin reads it; the page words it in its locale (a role by its name, a
 * status by its word, yes or no, a date, a number). `course` has its title when the content
 * service knows the slug, with the locale the title was served in.
 */
export type AuditValue =
	| { kind: 'person'; person: Person }
	| { kind: 'course'; slug: string; title: string | null; locale: string | null }
	| { kind: 'role'; role: Role }
	| { kind: 'tenantStatus'; status: TenantStatus }
	| { kind: 'enrollmentStatus'; status: EnrollmentStatus }
	| { kind: 'withdrawal'; reason: WithdrawalReason }
	| { kind: 'yesNo'; yes: boolean }
	| { kind: 'date'; iso: string }
	| { kind: 'number'; n: number }
	| { kind: 'text'; text: string }
	| { kind: 'list'; items: AuditValue[]; more: number }
	| { kind: 'fields'; fields: AuditField[] }
	| { kind: 'none' }

/** One metadata field: its stored key (the page labels the keys it knows) and its value. */
export interface AuditField {
	key: string
	value: AuditValue
}

/** A row told in a sentence of the catalogue (`key`), its people named and its numbers filled in by the page. */
export interface AuditSummary {
	key: string
	people: Record<string, Person>
	values: Record<string, string>
	numbers: Record<string, number>
}

// Metadata is shown, never trusted: a value is cut to this many characters, a list to this many
// items, and nesting to this depth, so that no stored value can stretch the page or its data.
const MAX_TEXT = 200
const MAX_ITEMS = 20
const MAX_DEPTH = 3
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

function cut(text: string) {
	const chars = Array.from(text.slice(0, MAX_TEXT * 2))
	return chars.length > MAX_TEXT ? `${chars.slice(0, MAX_TEXT - 1).join('')}…` : text
}

/** Any JSON value as fields, list items and words: never its JSON. */
function plain(value: unknown, depth = 0): AuditValue {
	if (value === null || value === undefined || value === '') return { kind: 'none' }
	if (typeof value === 'boolean') return { kind: 'yesNo', yes: value }
	if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', n: value } : { kind: 'none' }
	if (typeof value === 'string')
		return ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))
			? { kind: 'date', iso: new Date(value).toISOString() }
			: { kind: 'text', text: cut(value) }
	if (depth >= MAX_DEPTH) return { kind: 'text', text: '…' }
	if (Array.isArray(value))
		return {
			kind: 'list',
			items: value.slice(0, MAX_ITEMS).map((v) => plain(v, depth + 1)),
			more: Math.max(0, value.length - MAX_ITEMS),
		}
	if (typeof value === 'object')
		return {
			kind: 'fields',
			fields: Object.entries(value)
				.slice(0, MAX_ITEMS)
				.map(([key, v]) => ({ key: cut(key), value: plain(v, depth + 1) })),
		}
	return { kind: 'text', text: cut(String(value)) }
}

/** What a stored key means in a row of this action, beyond its JSON type. */
function meaningOf(action: string, key: string) {
	if (key === 'courseSlug') return 'course'
	if (key === 'unassigned') return 'courses'
	if (key === 'role') return 'role'
	if (key === 'reason' && action === 'invitation.revoked') return 'withdrawal'
	if (/Id$/.test(key)) return 'person'
	if (key === 'from' || key === 'to') {
		if (action === 'user.role_changed') return 'role'
		if (action.startsWith('tenant.')) return 'tenantStatus'
		if (action.startsWith('enrollment.')) return 'enrollmentStatus'
	}
	return null
}

/**
 * The order details are shown in: the stored order is not kept (PostgreSQL's jsonb sorts keys by
 * length, so `to` would come before `from`); keys not listed follow in their stored order.
 */
const FIELD_ORDER = [
	'learnerUserId',
	'courseSlug',
	'entrySlug',
	'submissionNumber',
	'score',
	'maxScore',
	'passed',
	'email',
	'name',
	'slug',
	'role',
	'from',
	'to',
	'unassigned',
	'sequential',
	'impersonatorId',
	'reason',
]
const rank = (key: string) => {
	const i = FIELD_ORDER.indexOf(key)
	return i === -1 ? FIELD_ORDER.length : i
}

const isRole = oneOf(ROLES)
const isWithdrawal = oneOf(WITHDRAWAL_REASONS)
const isTenantStatus = oneOf(TENANT_STATUSES)
const isEnrollmentStatus = oneOf(ENROLLMENT_STATUSES)

/** Course titles by slug on a tenant's host; none on the apex, and none (slugs shown) while the content service is down. */
async function courseTitles(ctx: RequestContext, slugs: Set<string>) {
	if (!ctx.tenant || slugs.size === 0) return new Map<string, { title: string; locale: string }>()
	try {
		const courses = await readCatalogue(ctx)
		return new Map(courses.map((c) => [c.slug, { title: c.title, locale: c.locale }]))
	} catch (error) {
		// readContent has logged the outage; the log is still worth reading with slugs.
		if (error instanceof Response) return new Map()
		throw error
	}
}

/** A row's metadata as an object (a row written as anything else has none to show). */
const metadataOf = (r: AuditRow): Record<string, unknown> =>
	typeof r.metadata === 'object' && r.metadata !== null && !Array.isArray(r.metadata) ? r.metadata : {}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/**
 * Grading rows (decision 0028) in words: whose submission, which one of which entry, the score
 * and the verdict, from the metadata gradeSubmissionSteps stores.
 */
function gradingSummary(row: AuditRow, person: (id: string) => Person): AuditSummary | null {
	if (row.action !== 'submission.graded' && row.action !== 'submission.returned') return null
	const md = metadataOf(row)
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
 * what to whom by name and email, each tenant by name, courses by title, and the metadata as
 * fields whose values say what they mean (a role, a status, yes or no, a date), its ids of people
 * (an impersonator) named too. An enrollment is named by its learner (the course is in the row's
 * metadata, `courseSlug`). The action stays its stored code: the page labels the actions it knows.
 */
export async function readableAudit(ctx: RequestContext, filters: AuditFilters) {
	const rows = await listAudit(ctx.db, filters)
	const enrollments = await enrollmentSubjects(ctx.db, filters.tenantId, [
		...new Set(rows.flatMap((r) => (r.target_kind === 'enrollment' && r.target_id ? [r.target_id] : []))),
	])
	const learnerOf = (r: AuditRow) =>
		r.target_kind === 'enrollment' && r.target_id ? (enrollments.get(r.target_id)?.userId ?? null) : null
	const fieldsOf = (r: AuditRow) => Object.entries(metadataOf(r)).sort(([a], [b]) => rank(a) - rank(b))
	const userIds = rows.flatMap((r) => [
		r.actor_user_id,
		r.target_kind === 'user' ? r.target_id : null,
		learnerOf(r),
		...fieldsOf(r).map(([k, v]) => (meaningOf(r.action, k) === 'person' && isString(v) ? v : null)),
	])
	const slugs = rows.flatMap((r) => [
		r.target_kind === 'course' ? r.target_id : null,
		...fieldsOf(r).flatMap(([k, v]) => {
			const meaning = meaningOf(r.action, k)
			return meaning === 'course' ? [v] : meaning === 'courses' && Array.isArray(v) ? v : []
		}),
	])
	const tenantIds = rows.flatMap((r) => [r.tenant_id, r.target_kind === 'tenant' ? r.target_id : null])
	const [names, titles] = await Promise.all([
		auditNames(
			ctx.db,
			filters.tenantId,
			[...new Set(userIds.filter(isString))],
			[...new Set(tenantIds.filter(isString))],
		),
		courseTitles(ctx, new Set(slugs.filter(isString))),
	])
	const person = (id: string): Person => {
		const p = names.people.get(id)
		return p ? { name: p.name, email: p.email } : { id: cut(id) }
	}
	const course = (slug: string): AuditValue => {
		const known = titles.get(slug)
		return { kind: 'course', slug: cut(slug), title: known?.title ?? null, locale: known?.locale ?? null }
	}
	const valueOf = (action: string, key: string, value: unknown): AuditValue => {
		const meaning = meaningOf(action, key)
		if (meaning === 'person' && isString(value)) return { kind: 'person', person: person(value) }
		if (meaning === 'course' && isString(value)) return course(value)
		if (meaning === 'courses' && Array.isArray(value))
			return {
				kind: 'list',
				items: value.slice(0, MAX_ITEMS).map((v) => (isString(v) ? course(v) : plain(v, 1))),
				more: Math.max(0, value.length - MAX_ITEMS),
			}
		if (meaning === 'role' && isRole(value)) return { kind: 'role', role: value }
		if (meaning === 'withdrawal' && isWithdrawal(value)) return { kind: 'withdrawal', reason: value }
		if (meaning === 'tenantStatus' && isTenantStatus(value)) return { kind: 'tenantStatus', status: value }
		if (meaning === 'enrollmentStatus' && isEnrollmentStatus(value)) return { kind: 'enrollmentStatus', status: value }
		return plain(value)
	}
	const targetOf = (r: AuditRow): AuditValue | null => {
		const md = metadataOf(r)
		if (r.target_kind === 'user' && r.target_id) return { kind: 'person', person: person(r.target_id) }
		if (r.target_kind === 'submission' && isString(md.learnerUserId))
			return { kind: 'person', person: person(md.learnerUserId) }
		const learner = learnerOf(r)
		if (learner) return { kind: 'person', person: person(learner) }
		if (r.target_kind === 'course' && r.target_id) return course(r.target_id)
		if (r.target_kind === 'tenant' && r.target_id)
			return { kind: 'text', text: names.tenants.get(r.target_id) ?? cut(r.target_id) }
		// An invitation is known by its address: a revoked one no longer exists to be looked up.
		if (r.target_kind === 'invitation' && isString(md.email)) return { kind: 'text', text: cut(md.email) }
		return r.target_id ? { kind: 'text', text: cut(r.target_id) } : null
	}
	return rows.map((r) => ({
		id: r.id,
		at: r.created_at.toISOString(),
		action: cut(r.action),
		actor: r.actor_user_id ? person(r.actor_user_id) : null,
		summary: gradingSummary(r, person),
		target: { kind: cut(r.target_kind), value: targetOf(r) },
		tenant: r.tenant_id ? (names.tenants.get(r.tenant_id) ?? r.tenant_id) : null,
		details: fieldsOf(r).map(([key, value]): AuditField => ({ key: cut(key), value: valueOf(r.action, key, value) })),
	}))
}

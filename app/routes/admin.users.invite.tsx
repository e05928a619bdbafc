import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, Link } from 'react-router'
import { z } from 'zod'
import { Submit, FormError, Notice, RedirectNotice } from '#app/ui/feedback.tsx'
import { Field, SelectField, TextAreaField, useActionForm } from '#app/ui/form.tsx'
import { RowReport } from '#app/admin/row-report.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { adminAction, requireAdmin } from '#app/admin/admin.server.ts'
import { CsvFileField, csvFileField, INVITE_CSV_BYTES } from '#app/admin/csv-file-field.tsx'
import {
	decodeCsv,
	emailsFromText,
	ListError,
	MAX_CSV_ROWS,
	MAX_ROWS,
	peopleFromCsv,
} from '#app/admin/email-list.server.ts'
import {
	inviteRows,
	type InviteOutcome,
	type InviteReportRow,
	type InviteRequest,
} from '#app/admin/onboarding.server.ts'
import { invitableCourses } from '#app/accounts/invitations.server.ts'
import { noticeValues } from '#app/platform/notices.server.ts'
import { emailField } from '#app/platform/validation.ts'
import { INVITABLE_ROLES } from '#db/schema/values.ts'
import type { Route } from './+types/admin.users.invite.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { notFound } from '#app/platform/errors.ts'
import { type NoticeName, withNotice } from '#app/platform/notices.ts'

// 500 addresses of 254 characters with separators stay below this; the server entry refuses
// bodies over 1 MiB before this module runs.
const MAX_TEXT = 200_000

const offer = {
	role: z.enum(INVITABLE_ROLES, { message: 'admin.invite.chooseRole' }),
	course_slug: z.string().trim().optional(),
}

const schema = z
	.discriminatedUnion(
		'intent',
		[
			z.object({
				intent: z.literal('one'),
				// The empty field speaks of the invitee, not of the admin's own address.
				email: z.string({ error: 'admin.invite.emailRequired' }).pipe(emailField),
				...offer,
			}),
			z.object({
				intent: z.literal('list'),
				emails: z.string({ error: 'admin.invite.errors.emailsRequired' }).max(MAX_TEXT, 'admin.invite.errors.tooLong'),
				...offer,
			}),
			z.object({ intent: z.literal('csv'), file: csvFileField('admin.invite.errors', INVITE_CSV_BYTES) }),
		],
		{ message: 'admin.invite.errors.unknownAction' },
	)
	.superRefine((v, issue) => {
		if (v.intent !== 'csv' && v.role === 'course_admin' && !v.course_slug)
			issue.addIssue({ code: 'custom', path: ['course_slug'], message: 'admin.invite.courseRequired' })
	})

async function publishedCourses(scope: ReturnType<typeof requireAdmin>) {
	return (await invitableCourses(scope.ctx)).map((c) => ({ value: c.slug, label: c.title }))
}

const INVITE_NOTICES = [
	'invitationSent',
	'invitationSentToMember',
	'invitationRefreshed',
] as const satisfies NoticeName[]

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/** Invitations belong to a tenant: this page needs a tenant host. */
export async function loader({ context, request }: Route.LoaderArgs) {
	const scope = requireAdmin(context)
	if (!scope.tenant) throw notFound()
	const [courses, notice] = await Promise.all([
		publishedCourses(scope),
		noticeValues(scope.ctx, request, INVITE_NOTICES),
	])
	return { courses, notice, maxRows: MAX_ROWS }
}

/** The single form posted before it had an intent (an older page, a bookmark): the same as `one`. */
async function readInviteForm(request: Request) {
	const form = await readForm(request)
	if (!form.has('intent')) form.set('intent', 'one')
	return form
}

const parseInvite = (form: FormData) => parseWithZod(form, { schema })
type Parsed = Extract<ReturnType<typeof parseInvite>, { status: 'success' }>
type Scope = Parameters<typeof inviteRows>[0]
type Tenant = Parameters<typeof inviteRows>[1]

const ONE_NOTICE: Partial<Record<InviteOutcome, NoticeName>> = {
	invited: 'invitationSent',
	memberInvited: 'invitationSentToMember',
	refreshed: 'invitationRefreshed',
}

/** Why one address was not invited, and the field that says it. */
const ONE_REFUSAL: Partial<Record<InviteOutcome, [string, string]>> = {
	member: ['email', 'admin.invite.alreadyMember'],
	deactivated: ['email', 'admin.invite.outcomes.deactivated'],
	unknownCourse: ['course_slug', 'admin.invite.unpublishedCourse'],
	courseNeeded: ['course_slug', 'admin.invite.courseRequired'],
	courseFull: ['course_slug', 'admin.invite.outcomes.courseFull'],
}

/** One address: a redirect with its notice, or the reason beside its field. */
async function inviteOne(scope: Scope, tenant: Tenant, submission: Parsed, input: Parsed['value'] & { intent: 'one' }) {
	const {
		report: [row],
	} = await inviteRows(scope, tenant, [{ row: 1, email: input.email, name: '', role: '', course: '', language: '' }], {
		role: input.role,
		course: input.course_slug ?? '',
	})
	const sent = ONE_NOTICE[row.outcome]
	// The notice names the invitation by its id: the page looks its address up (decision 0032).
	if (sent && row.invitationId)
		return redirect(localePath(scope.ctx.locale, withNotice('/admin/users/invite', sent, row.invitationId)))
	const [field, message] = ONE_REFUSAL[row.outcome] ?? ['email', `admin.invite.outcomes.${row.outcome}`]
	return data(
		{ result: submission.reply({ fieldErrors: { [field]: [message] } }) },
		{ status: row.outcome === 'member' ? 409 : 400 },
	)
}

/** The rows of a pasted list or a CSV file; a file that is not UTF-8 or not CSV is a ListError. */
async function listRows(input: Parsed['value'] & { intent: 'list' | 'csv' }): Promise<InviteRequest[]> {
	if (input.intent === 'csv') return peopleFromCsv(decodeCsv(new Uint8Array(await input.file.arrayBuffer())))
	return emailsFromText(input.emails).map((email, i) => ({
		row: i + 1,
		email,
		name: '',
		role: '',
		course: '',
		language: '',
	}))
}

/** A pasted list or a CSV file: a per-row report, or the reason the whole list was refused. */
async function inviteList(
	scope: Scope,
	tenant: Tenant,
	submission: Parsed,
	input: Parsed['value'] & { intent: 'list' | 'csv' },
) {
	const field = input.intent === 'list' ? 'emails' : 'file'
	const refuse = (message: string) =>
		data({ result: submission.reply({ fieldErrors: { [field]: [message] } }) }, { status: 400 })
	let rows: InviteRequest[]
	try {
		rows = await listRows(input)
	} catch (error) {
		if (!(error instanceof ListError)) throw error
		if (error.reason === 'notUtf8') return refuse('admin.invite.errors.notUtf8')
		return data(
			{
				result: submission.reply({
					fieldErrors: { file: [error.row ? 'admin.invite.errors.notCsvAt' : 'admin.invite.errors.notCsv'] },
				}),
				csvRow: error.row,
			},
			{ status: 400 },
		)
	}
	if (rows.length === 0) return refuse('admin.invite.errors.empty')
	// Refused whole rather than cut: an admin should never have to work out which rows were left out.
	if (input.intent === 'list' && rows.length > MAX_ROWS) return refuse('admin.invite.errors.tooManyRows')
	if (rows.length > MAX_CSV_ROWS) return refuse('admin.invite.errors.tooManyCsvRows')
	const defaults =
		input.intent === 'list'
			? { role: input.role, course: input.course_slug ?? '' }
			: { role: 'student' as const, course: '' }
	const { report, notStoredFrom } = await inviteRows(scope, tenant, rows, defaults)
	// A chunk failed (decision 0059): the rows before it are stored, the report says which were not.
	if (notStoredFrom !== null) return data({ result: submission.reply(), report, notStoredFrom }, { status: 503 })
	return { result: submission.reply({ resetForm: true }), report, notStoredFrom }
}

/**
 * One address (answered with a redirect and its notice, or the reason beside the field), a pasted
 * list or a CSV file (answered with a per-row report): tenant_admin and super_admin on the tenant's
 * host, one rate-limited mutation per post however many rows (decision 0040).
 */
export const action = adminAction({ scope: 'tenant' }, async ({ scope, tenant }, { request }: Route.ActionArgs) => {
	const submission = parseInvite(await readInviteForm(request))
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const input = submission.value
	if (input.intent === 'one') return inviteOne(scope, tenant, submission, input)
	return inviteList(scope, tenant, submission, input)
})

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ matches }) => {
	const t = metaI18n(matches)
	return [{ title: t.format(t.m.admin.pageTitle, { page: t.m.admin.invite.metaTitle }) }]
}

const OUTCOMES: InviteOutcome[] = [
	'invited',
	'refreshed',
	'memberInvited',
	'member',
	'deactivated',
	'invalid',
	'duplicate',
	'unknownRole',
	'roleNotAllowed',
	'unknownCourse',
	'courseNeeded',
	'unknownLanguage',
	'courseFull',
	'notStored',
]

function Report({ rows, notStoredFrom }: { rows: InviteReportRow[]; notStoredFrom: number | null }) {
	const t = useI18n()
	const m = t.m.admin.invite
	return (
		<>
			{notStoredFrom !== null ? (
				<Notice tone="error">
					<p>{t.format(m.partlyStored, { row: t.number(notStoredFrom) })}</p>
				</Notice>
			) : null}
			<RowReport
				title={m.reportTitle}
				words={m}
				order={OUTCOMES}
				countLine={(outcome, count) => t.format(m.countLine, { outcome: m.outcomes[outcome], count })}
				lines={rows.map((r) => ({
					row: r.row,
					given: r.userId ? <Link to={`/admin/users/${r.userId}`}>{r.value}</Link> : r.value,
					outcome: r.outcome,
					result: m.outcomes[r.outcome],
				}))}
			/>
		</>
	)
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.invite
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	const intent = typeof result?.initialValue?.intent === 'string' ? result.initialValue.intent : 'one'
	// Three forms share the action's one result: each shows it only when it was the form posted.
	// The selects' defaults are given: a form reset (another form's answer, a notice) unselects a
	// select that has none, and the form would then post an empty role.
	const selects = { role: INVITABLE_ROLES[0], course_slug: '' }
	const [form, fields] = useActionForm(intent === 'one' ? result : undefined, selects)
	const [listForm, listFields] = useActionForm(intent === 'list' ? result : undefined, selects)
	const [csvForm, csvFields] = useActionForm(intent === 'csv' ? result : undefined)
	const report = actionData && 'report' in actionData ? actionData.report : null
	const notStoredFrom = actionData && 'notStoredFrom' in actionData ? actionData.notStoredFrom : null
	const csvRow = actionData && 'csvRow' in actionData ? (actionData.csvRow as number | null) : null
	const roles = INVITABLE_ROLES.map((r) => ({ value: r, label: t.m.admin.roles[r] }))
	const courses = [{ value: '', label: m.noCourse }, ...loaderData.courses]
	return (
		<section className="narrow">
			<p className="actions">
				<Link prefetch="intent" to={'/admin/users'}>
					{m.back}
				</Link>
				<Link prefetch="intent" to={'/admin/users/invitations'}>
					{t.m.admin.invitations.title}
				</Link>
			</p>
			<h1>{m.title}</h1>
			<RedirectNotice accept={INVITE_NOTICES} values={loaderData.notice} />
			{report ? <Report rows={report} notStoredFrom={notStoredFrom} /> : null}
			<p className="hint">{m.courseHint}</p>
			<Form method="post" className="stack" {...getFormProps(form)}>
				<FormError errors={form.errors} id={form.errorId} />
				<input type="hidden" name="intent" value="one" />
				<Field label={m.email} meta={fields.email} type="email" autoComplete="off" />
				<SelectField label={m.role} meta={fields.role} options={roles} />
				<SelectField label={m.course} meta={fields.course_slug} options={courses} />
				<Submit>{m.submit}</Submit>
			</Form>
			<h2>{m.manyTitle}</h2>
			<p>{t.format(m.manyIntro, { max: t.number(loaderData.maxRows) })}</p>
			<Form method="post" className="stack" {...getFormProps(listForm)}>
				<FormError errors={listForm.errors} id={listForm.errorId} />
				<input type="hidden" name="intent" value="list" />
				<TextAreaField label={m.emails} hint={m.emailsHint} meta={listFields.emails} spellCheck={false} />
				<SelectField label={m.manyRole} meta={listFields.role} options={roles} />
				<SelectField label={m.manyCourse} meta={listFields.course_slug} options={courses} />
				<Submit>{m.inviteMany}</Submit>
			</Form>
			<h2>{m.csvTitle}</h2>
			<Form method="post" encType="multipart/form-data" className="stack" {...getFormProps(csvForm)}>
				<FormError errors={csvForm.errors} id={csvForm.errorId} />
				<input type="hidden" name="intent" value="csv" />
				<CsvFileField meta={csvFields.file} label={m.file} hint={m.fileHint} row={csvRow} />
				<Submit>{m.upload}</Submit>
			</Form>
		</section>
	)
}

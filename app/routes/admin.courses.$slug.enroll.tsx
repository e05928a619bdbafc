import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { TextAreaField, useActionForm } from '#app/ui/form.tsx'
import { CourseAdminHeading, TenantHint } from '#app/learning/learning.tsx'
import { ScrollTable } from '#app/ui/table.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import { enrollRefusal, enrollRows, type EnrollOutcome, type ReportRow } from '#app/admin/admin-enrollments.server.ts'
import { courseAdminPage, courseMutation } from '#app/admin/admin.server.ts'
import { emailsFromCsv, emailsFromText, MAX_ROWS } from '#app/admin/email-list.server.ts'
import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import type { Route } from './+types/admin.courses.$slug.enroll.ts'

// 500 addresses of 254 characters with separators stay far below these; the server entry refuses
// bodies over 1 MiB before this module runs.
const MAX_TEXT = 200_000
const MAX_FILE = 512 * 1024
// Spreadsheets and systems label a CSV file in several ways (Windows says Excel's type).
const CSV_TYPES = [
	'text/csv',
	'text/plain',
	'application/csv',
	'application/vnd.ms-excel',
	'application/octet-stream',
	'',
]

const schema = z.discriminatedUnion(
	'intent',
	[
		z.object({
			intent: z.literal('emails'),
			emails: z
				.string({ error: 'adminCourses.enroll.errors.emailsRequired' })
				.max(MAX_TEXT, 'adminCourses.enroll.errors.tooLong'),
		}),
		z.object({
			intent: z.literal('csv'),
			file: z
				.file({ error: 'adminCourses.enroll.errors.fileRequired' })
				.max(MAX_FILE, 'adminCourses.enroll.errors.fileTooLarge')
				.refine(
					(f) => CSV_TYPES.includes(f.type.split(';')[0].trim().toLowerCase()) || /\.csv$/i.test(f.name),
					'adminCourses.enroll.errors.notCsv',
				),
		}),
	],
	{ message: 'adminCourses.enroll.errors.unknownAction' },
)

// Administration ships JavaScript: client-side navigation between admin pages, pending states on every form.
export const handle = { scripts: true } satisfies ScriptsHandle

/**
 * Enrolling learners of this tenant in the course by address or CSV: tenant_admin and super_admin,
 * and a course_admin assigned to the course (requireCourseAdmin); docs/decisions/0025.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const { page, scope, tenant, course } = await courseAdminPage(context, params.slug)
	if (!tenant) return page
	return {
		...page,
		refusal: enrollRefusal(course),
		// People's pages and invitations are a tenant admin's (both are 404 for a course admin).
		managesUsers: scope.session.user.role !== 'course_admin',
		maxRows: MAX_ROWS,
	}
}

export async function action({ context, request, params }: Route.ActionArgs) {
	const { limited, scope, tenant, course } = await courseMutation(context, params.slug)
	if (limited) return limited
	const submission = parseWithZod(await readForm(request), { schema })
	if (submission.status !== 'success') return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
	const refusal = enrollRefusal(course)
	if (refusal) return data({ result: submission.reply({ formErrors: [refusal] }) }, { status: 409 })

	const input = submission.value
	const field = input.intent === 'emails' ? 'emails' : 'file'
	const refuse = (message: string) =>
		data({ result: submission.reply({ fieldErrors: { [field]: [message] } }) }, { status: 400 })
	let rows: string[]
	try {
		rows = input.intent === 'emails' ? emailsFromText(input.emails) : emailsFromCsv(await input.file.text())
	} catch {
		// csv-parse refuses what no spreadsheet writes (an unclosed quote).
		return refuse('adminCourses.enroll.errors.notCsv')
	}
	if (rows.length === 0) return refuse('adminCourses.enroll.errors.empty')
	// Refused whole rather than cut: an admin should never have to work out which rows were left out.
	if (rows.length > MAX_ROWS) return refuse('adminCourses.enroll.errors.tooManyRows')

	const report = await enrollRows(scope, tenant, course, rows)
	return { result: submission.reply({ resetForm: true }), report }
}

export { actionHeaders as headers } from '#app/platform/headers.ts'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
	const t = metaI18n(matches)
	const m = t.m.adminCourses.enroll
	return [
		{
			title: t.format(m.metaTitle, { course: loaderData && !loaderData.hint ? loaderData.course.title : m.metaCourse }),
		},
	]
}

const OUTCOMES: EnrollOutcome[] = [
	'enrolled',
	'reactivated',
	'alreadyEnrolled',
	'notFound',
	'deactivated',
	'invalid',
	'duplicate',
]

function Report({ rows, managesUsers }: { rows: ReportRow[]; managesUsers: boolean }) {
	const t = useI18n()
	const m = t.m.adminCourses.enroll
	const counts = OUTCOMES.map((o) => ({ outcome: o, n: rows.filter((r) => r.outcome === o).length })).filter(
		(c) => c.n > 0,
	)
	return (
		<section>
			<h2>{m.reportTitle}</h2>
			<Notice tone="ok">
				<ul>
					{counts.map((c) => (
						<li key={c.outcome}>{t.format(m.counts[c.outcome], { count: t.number(c.n) })}</li>
					))}
				</ul>
			</Notice>
			<ScrollTable label={m.reportTitle}>
				<thead>
					<tr>
						<th scope="col">{m.row}</th>
						<th scope="col">{m.given}</th>
						<th scope="col">{m.result}</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((r, i) => (
						<tr key={i} data-outcome={r.outcome}>
							<td>{t.number(i + 1)}</td>
							<td className="break">
								{r.userId && managesUsers ? <Link to={`/admin/users/${r.userId}`}>{r.value}</Link> : r.value}
							</td>
							<td>
								{r.outcome === 'alreadyEnrolled' && r.status
									? t.format(m.outcomes.alreadyEnrolled, { status: t.m.adminCourses.enrollmentStatus[r.status] })
									: m.outcomes[r.outcome]}
								{r.outcome === 'notFound' && managesUsers ? (
									<>
										{' '}
										<Link to="/admin/users/invite">{m.invite}</Link>
									</>
								) : null}
							</td>
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</section>
	)
}

export default function EnrollLearners({ loaderData: d, actionData }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.adminCourses.enroll
	const result = actionData && 'result' in actionData ? actionData.result : undefined
	const intent = typeof result?.initialValue?.intent === 'string' ? result.initialValue.intent : null
	// Two forms share the action's one result: each shows it only when it was the form posted.
	const [emailsForm, emailsFields] = useActionForm(intent === 'csv' ? undefined : result)
	const [csvForm, csvFields] = useActionForm(intent === 'csv' ? result : undefined)
	if (d.hint) return <TenantHint title={m.hintTitle} what={m.hintWhat} />
	const report = actionData && 'report' in actionData ? actionData.report : null
	const file = csvFields.file
	const fileError = file.errors?.length ? file.errorId : undefined
	return (
		<section className="narrow">
			<CourseAdminHeading course={d.course} title={m.title} />
			{report ? <Report rows={report} managesUsers={d.managesUsers} /> : null}
			{d.refusal ? (
				<Notice tone="info" role="note">
					{t.text(d.refusal)}
				</Notice>
			) : (
				<>
					<p>{t.format(m.intro, { max: t.number(d.maxRows) })}</p>
					{d.managesUsers ? (
						<p>
							{m.inviteHint} <Link to="/admin/users/invite">{m.invite}</Link>
						</p>
					) : null}
					<h2>{m.byEmail}</h2>
					<Form method="post" className="stack" {...getFormProps(emailsForm)}>
						<FormError errors={emailsForm.errors} id={emailsForm.errorId} />
						<input type="hidden" name="intent" value="emails" />
						<TextAreaField label={m.emails} hint={m.emailsHint} meta={emailsFields.emails} spellCheck={false} />
						<Submit>{m.enroll}</Submit>
					</Form>
					<h2>{m.byCsv}</h2>
					<Form method="post" encType="multipart/form-data" className="stack" {...getFormProps(csvForm)}>
						<FormError errors={csvForm.errors} id={csvForm.errorId} />
						<input type="hidden" name="intent" value="csv" />
						<div className="field">
							<label htmlFor={file.id}>{m.file}</label>
							<p id={`${file.id}-hint`} className="hint">
								{m.fileHint}
							</p>
							<input
								id={file.id}
								name={file.name}
								type="file"
								accept=".csv,text/csv,text/plain"
								aria-invalid={fileError ? true : undefined}
								aria-describedby={[`${file.id}-hint`, fileError].filter(Boolean).join(' ')}
							/>
							{fileError ? (
								<p id={fileError} className="field-error">
									{file.errors!.map(t.text).join(' ')}
								</p>
							) : null}
						</div>
						<Submit>{m.upload}</Submit>
					</Form>
				</>
			)}
		</section>
	)
}

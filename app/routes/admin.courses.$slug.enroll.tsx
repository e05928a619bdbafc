import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { TextAreaField, useActionForm } from '#app/ui/form.tsx'
import { CourseAdminHeading, TenantHint } from '#app/admin/headings.tsx'
import { RowReport } from '#app/admin/row-report.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import type { ScriptsHandle } from '#app/root.tsx'
import {
	enrollRefusal,
	enrollRows,
	type EnrollOutcome,
	type EnrollRequest,
	type ReportRow,
} from '#app/admin/admin-enrollments.server.ts'
import { adminAction, courseAdminPage } from '#app/admin/admin.server.ts'
import { decodeCsv, emailsFromText, ListError, MAX_ROWS, peopleFromCsv } from '#app/admin/email-list.server.ts'
import { CsvFileField, csvFileField } from '#app/admin/csv-file-field.tsx'
import { isPaid } from '#app/content/content.ts'
import { readForm, replyWithHidden } from '#app/platform/forms.server.ts'
import type { Route } from './+types/admin.courses.$slug.enroll.ts'

// 500 addresses of 254 characters with separators stay far below these; the server entry refuses
// bodies over 1 MiB before this module runs.
const MAX_TEXT = 200_000

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
			file: csvFileField('adminCourses.enroll.errors'),
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
		// A paid course's enrollments made here are seats the organisation grants (decision 0040).
		seat: isPaid(course),
		// People's pages are a tenant admin's (404 for a course admin).
		managesUsers: scope.session.user.role !== 'course_admin',
		maxRows: MAX_ROWS,
	}
}

export const action = adminAction(
	{ scope: 'course' },
	async ({ scope, tenant, course }, { request }: Route.ActionArgs) => {
		const submission = parseWithZod(await readForm(request), { schema })
		if (submission.status !== 'success')
			return data({ result: replyWithHidden(submission, ['intent']) }, { status: 400 })
		const refusal = enrollRefusal(course)
		if (refusal) return data({ result: submission.reply({ formErrors: [refusal] }) }, { status: 409 })

		const input = submission.value
		const field = input.intent === 'emails' ? 'emails' : 'file'
		const refuse = (message: string) =>
			data({ result: submission.reply({ fieldErrors: { [field]: [message] } }) }, { status: 400 })
		let rows: EnrollRequest[]
		try {
			// A CSV's name and language columns go into the invitations it sends (decision 0065).
			rows =
				input.intent === 'emails'
					? emailsFromText(input.emails).map((email) => ({ email, name: '', language: '' }))
					: peopleFromCsv(decodeCsv(new Uint8Array(await input.file.arrayBuffer())))
		} catch (error) {
			if (!(error instanceof ListError)) throw error
			// Not UTF-8 (a Windows-1252 file), or what no spreadsheet writes (an unclosed quote, at a row).
			if (error.reason === 'notUtf8') return refuse('adminCourses.enroll.errors.notUtf8')
			return data(
				{
					result: submission.reply({
						fieldErrors: {
							file: [error.row ? 'adminCourses.enroll.errors.notCsvAt' : 'adminCourses.enroll.errors.notCsv'],
						},
					}),
					csvRow: error.row,
				},
				{ status: 400 },
			)
		}
		if (rows.length === 0) return refuse('adminCourses.enroll.errors.empty')
		// Refused whole rather than cut: an admin should never have to work out which rows were left out.
		if (rows.length > MAX_ROWS) return refuse('adminCourses.enroll.errors.tooManyRows')

		const report = await enrollRows(scope, tenant, course, rows)
		return { result: submission.reply({ resetForm: true }), report }
	},
)

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
	'invited',
	'invitationRefreshed',
	'deactivated',
	'invalid',
	'duplicate',
	'unknownLanguage',
	'full',
]

function Report({ rows, managesUsers }: { rows: ReportRow[]; managesUsers: boolean }) {
	const t = useI18n()
	const m = t.m.adminCourses.enroll
	return (
		<RowReport
			title={m.reportTitle}
			words={m}
			order={OUTCOMES}
			countLine={(outcome, count) => t.format(m.counts[outcome], { count })}
			lines={rows.map((r, i) => ({
				row: i + 1,
				given: r.userId && managesUsers ? <Link to={`/admin/users/${r.userId}`}>{r.value}</Link> : r.value,
				outcome: r.outcome,
				result:
					r.outcome === 'alreadyEnrolled' && r.status
						? t.format(m.outcomes.alreadyEnrolled, { status: t.m.adminCourses.enrollmentStatus[r.status] })
						: m.outcomes[r.outcome],
			}))}
		/>
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
	const csvRow = actionData && 'csvRow' in actionData ? (actionData.csvRow as number | null) : null
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
					{d.seat ? (
						<Notice tone="info" role="note">
							{m.seatNote}
						</Notice>
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
						<CsvFileField meta={file} label={m.file} hint={m.fileHint} row={csvRow} />
						<Submit>{m.upload}</Submit>
					</Form>
				</>
			)}
		</section>
	)
}

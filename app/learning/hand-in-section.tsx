// An assignment on its entry page: the hand-in form and everything handed in so far (decision 0027).
import type { SubmissionResult } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { Form } from 'react-router'
import { formatBytes } from '#app/i18n/format.ts'
import { FormError, Notice, Submit } from '#app/ui/feedback.tsx'
import { HAND_IN_LIMITS } from './hand-in-limits.ts'
import { useI18n } from '#app/i18n/index.ts'
import type { Locale } from '#app/i18n/locales.ts'
import type { AssignmentView } from './entry-page.server.ts'
import type { FileProblem } from './hand-in.server.ts'

type AssignmentData = NonNullable<AssignmentView>
type HandInResult = SubmissionResult<string[]> | undefined

/**
 * The hand-in form and everything handed in so far. A plain multipart form: it works without
 * JavaScript, and a refused hand-in comes back with the text as typed and each error beside its
 * field (files must be chosen again: no browser lets a page keep them).
 */
export function HandInSection({
	assignment: a,
	done,
	preview,
	lang,
	result,
	fileProblems,
}: {
	assignment: AssignmentData
	done: boolean
	preview: boolean
	lang: Locale
	result: HandInResult
	fileProblems: { fileName: string; problem: FileProblem }[]
}) {
	const t = useI18n()
	const m = t.m.learning.assignment
	const { rules } = a
	// Without JavaScript the returned page has an empty file field; with it, the same field would keep the
	// refused files. Emptied on every answer, so both say what the page says: choose them again.
	// Not on the first render: a file chosen before the page hydrated (a slow phone) stays chosen.
	const files = useRef<HTMLInputElement>(null)
	const answers = useRef(0)
	useEffect(() => {
		if (answers.current++ > 0 && files.current) files.current.value = ''
	}, [result])
	const latest = a.submissions[0]
	const errors = result?.error ?? {}
	const given = (result?.initialValue ?? {}) as Record<string, string | undefined>
	const size = formatBytes(HAND_IN_LIMITS.maxFileBytes, t.locale)
	const problemText = (p: FileProblem) =>
		t.format(m.fileProblems[p], { size, count: t.number(HAND_IN_LIMITS.maxFiles) })
	const fieldError = (name: string) =>
		errors[name]?.length ? (
			<p id={`hand-in-${name}-error`} className="field-error">
				{errors[name]!.map(t.text).join(' ')}
			</p>
		) : null
	const describedBy = (name: string, hint?: string) =>
		[hint, errors[name]?.length ? `hand-in-${name}-error` : null].filter(Boolean).join(' ') || undefined
	// Once the newest hand-in has been graded or returned, its score and feedback come first (issue 39):
	// the learner came from the mail to read them, not to see an empty form.
	const feedbackFirst = latest !== undefined && latest.status !== 'submitted'
	const history = <HandInHistory submissions={a.submissions} />
	return (
		<section aria-labelledby="hand-in-heading" className="hand-in stack">
			<h2 id="hand-in-heading">{m.heading}</h2>
			<HandInRule rules={rules} />
			{a.instructionsHtml ? (
				<div
					className="prose"
					lang={rules.instructionsLocale ?? lang}
					dangerouslySetInnerHTML={{ __html: a.instructionsHtml }}
				/>
			) : null}
			{done ? (
				<Notice tone="ok">{t.m.learning.entry.completedAssignment}</Notice>
			) : latest?.status === 'returned' ? (
				<Notice tone="info">{m.returnedHint}</Notice>
			) : latest?.status === 'graded' && latest.passed === false ? (
				<Notice tone="info">{m.notPassedHint}</Notice>
			) : null}
			{a.reopened ? <Notice tone="info">{m.reopened}</Notice> : null}
			{feedbackFirst ? history : null}
			{a.closed ? (
				<Notice tone="info" role="note">
					{m.alreadyGraded}
				</Notice>
			) : (
				// Keyed by the hand-ins so far: once one is stored the form starts empty again, with JavaScript as without.
				<Form key={a.submissions.length} method="post" encType="multipart/form-data" className="stack" noValidate>
					<FormError errors={errors[''] ?? undefined} />
					<input type="hidden" name="intent" value="hand-in" />
					<input type="hidden" name="submission" value={a.submissionKey} />
					<div className="field">
						<label htmlFor="hand-in-text">{m.text}</label>
						<textarea
							id="hand-in-text"
							name="text"
							rows={6}
							maxLength={HAND_IN_LIMITS.maxTextChars}
							defaultValue={given.text}
							aria-invalid={errors.text?.length ? true : undefined}
							aria-describedby={describedBy('text')}
						/>
						{fieldError('text')}
					</div>
					<div className="field">
						<label htmlFor="hand-in-link">{m.link}</label>
						<p id="hand-in-link-hint" className="hint">
							{m.linkHint}
						</p>
						<input
							id="hand-in-link"
							name="link"
							type="url"
							inputMode="url"
							maxLength={HAND_IN_LIMITS.maxLinkChars}
							defaultValue={given.link}
							aria-invalid={errors.link?.length ? true : undefined}
							aria-describedby={describedBy('link', 'hand-in-link-hint')}
						/>
						{fieldError('link')}
					</div>
					<div className="field">
						<label htmlFor="hand-in-files">{m.files}</label>
						<p id="hand-in-files-hint" className="hint">
							{t.format(m.filesHint, {
								count: t.number(HAND_IN_LIMITS.maxFiles),
								size,
								types: rules.allowedFileTypes.map((x) => `.${x}`).join(', '),
							})}
						</p>
						<input
							ref={files}
							id="hand-in-files"
							name="files"
							type="file"
							multiple
							accept={rules.allowedFileTypes.map((x) => `.${x}`).join(',')}
							aria-invalid={fileProblems.length ? true : undefined}
							aria-describedby={['hand-in-files-hint', fileProblems.length ? 'hand-in-files-error' : null]
								.filter(Boolean)
								.join(' ')}
						/>
						{fileProblems.length ? (
							<div id="hand-in-files-error" className="field-error">
								<ul>
									{fileProblems.map((p) => (
										<li key={`${p.fileName}|${p.problem}`}>
											{p.fileName ? <>{p.fileName}: </> : null}
											{problemText(p.problem)}
										</li>
									))}
								</ul>
								<p>{m.filesAgain}</p>
							</div>
						) : null}
					</div>
					<Submit disabled={preview}>{latest ? m.submitAgain : m.submit}</Submit>
				</Form>
			)}
			{feedbackFirst ? null : history}
		</section>
	)
}

/** Everything handed in so far, newest first, with each one's files, score and feedback. */
function HandInHistory({ submissions }: { submissions: AssignmentData['submissions'] }) {
	const t = useI18n()
	const m = t.m.learning.assignment
	if (!submissions.length) return null
	return (
		<>
			<h3 id="hand-in-history">{m.history}</h3>
			<ol className="submissions" aria-labelledby="hand-in-history" reversed>
				{submissions.map((x) => (
					<li key={x.number} className="submission">
						<p>
							<strong>{t.format(m.submission, { number: t.number(x.number) })}</strong> ·{' '}
							{x.superseded ? m.superseded : m.status[x.status]}
						</p>
						<p className="hint">{t.format(m.submittedAt, { date: t.date(x.submittedAt) })}</p>
						{x.late ? (
							<p>
								<span className="badge badge-warn">{t.m.learning.due.late}</span> {t.m.learning.due.lateHandIn}
							</p>
						) : null}
						{x.text ? <p className="submission-text">{x.text}</p> : <p className="hint">{m.noText}</p>}
						{x.link ? (
							<p>
								<a href={x.link} rel="noopener noreferrer nofollow ugc" className="break">
									{x.link}
								</a>
							</p>
						) : null}
						{x.files.length ? (
							<ul className="submission-files">
								{x.files.map((f) => (
									<li key={f.id}>
										<a href={`/api/files/${f.id}`} download>
											{f.name}
										</a>{' '}
										<span className="hint">({formatBytes(f.size, t.locale)})</span>
									</li>
								))}
							</ul>
						) : null}
						{x.score !== null && x.maxScore !== null ? (
							<p>
								{t.format(m.score, { score: t.number(x.score), max: t.number(x.maxScore) })}
								{x.passed === null ? null : <> · {x.passed ? m.passed : m.notPassed}</>}
							</p>
						) : null}
						{x.feedback ? (
							<div className="submission-feedback">
								<p>
									<strong>{m.feedback}</strong>
									{x.gradedAt ? (
										<span className="hint"> · {t.format(m.gradedAt, { date: t.date(x.gradedAt) })}</span>
									) : null}
								</p>
								<p className="submission-text">{x.feedback}</p>
							</div>
						) : null}
					</li>
				))}
			</ol>
		</>
	)
}

/** How the assignment is judged: graded out of a maximum with its pass mark, or feedback only. */
function HandInRule({ rules }: { rules: AssignmentData['rules'] }) {
	const t = useI18n()
	const m = t.m.learning.assignment
	return (
		<p className="hint">
			{rules.graded
				? t.format(m.gradedRule, {
						max: t.number(rules.maxScore),
						pass:
							rules.passingScore === null
								? m.anyGradePasses
								: t.format(m.passMark, { score: t.number(rules.passingScore) }),
					})
				: m.ungradedRule}
		</p>
	)
}

// A quiz on its entry page: the form, the learner's attempts and their review (decision 0022).
import { Form } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'
import type { Locale } from '#app/i18n/locales.ts'
import { Notice, Submit } from '#app/ui/feedback.tsx'
import type { AttemptReview } from './quiz.server.ts'
import type { QuizView } from './entry-page.server.ts'

type QuizData = NonNullable<QuizView>
type QuizMessages = ReturnType<typeof useI18n>['m']['learning']['quiz']

/** Under feedback while the answers are withheld: when they will be shown (decisions 0022, 0054). */
const REVEAL_HINT: Record<QuizData['revealRule'], (m: QuizMessages) => string> = {
	never: (m) => m.revealNever,
	after_each_attempt: (m) => m.revealLater,
	after_last_attempt: (m) => m.revealLater,
	after_passing: (m) => m.revealAfterPassing,
	after_due_date: (m) => m.revealAfterDue,
}

/**
 * `lang` is the locale the quiz's prompts and options were served in. `previewReview` is staff's
 * graded try in preview, never stored: shown with the answers, and its answers fill the form.
 */
export function QuizSection({
	quiz,
	preview,
	previewReview,
	lang,
}: {
	quiz: QuizData
	preview: boolean
	previewReview: AttemptReview | null
	lang: Locale
}) {
	const t = useI18n()
	const m = t.m.learning.quiz
	const { public: q, result } = quiz
	const previous = previewReview ?? quiz.previous
	const summary = [
		t.format(m.passMark, { score: t.percent(q.passingScore) }),
		t.plural(m.attemptsUsed, q.maxAttempts, { used: t.number(quiz.attemptsUsed) }),
	]
	const given = previous ? Object.fromEntries(previous.questions.map((x) => [x.questionId, x])) : {}
	return (
		<section aria-labelledby="quiz-heading" className="quiz">
			<h2 id="quiz-heading">{m.heading}</h2>
			{/* The learner's standing first (issue 52): passed or not, and the score that counts. */}
			{quiz.attemptsUsed > 0 ? (
				<p className="quiz-standing">
					<strong className={quiz.passed ? 'badge badge-ok' : 'badge'}>
						{quiz.passed ? m.resultPassed : m.resultNotPassed}
					</strong>{' '}
					{t.format(m.scoreThatCounts, { score: t.percent(quiz.best) })}
				</p>
			) : null}
			<p className="hint">{summary.join(' · ')}</p>
			{quiz.exhausted ? (
				<>
					<Notice tone="info">{t.plural(m.allUsed, q.maxAttempts)}</Notice>
					<h3 id="quiz-attempts">{m.yourAttempts}</h3>
					<ol className="quiz-attempts" aria-labelledby="quiz-attempts">
						{quiz.history.map((a) => (
							<li key={a.attemptNumber}>
								<AttemptReport attempt={a} quiz={q} revealed={quiz.revealed} rule={quiz.revealRule} lang={lang} />
							</li>
						))}
					</ol>
				</>
			) : (
				<>
					{result ? (
						<AttemptReport
							attempt={result}
							quiz={q}
							revealed={quiz.revealed}
							rule={quiz.revealRule}
							lang={lang}
							attemptsLeft={quiz.resultIsLatest ? quiz.attemptsLeft : undefined}
							role="status"
						/>
					) : null}
					{previewReview ? (
						<AttemptReport
							attempt={previewReview}
							quiz={q}
							revealed
							rule="after_each_attempt"
							lang={lang}
							role="status"
							preview
						/>
					) : null}
					{quiz.passed && !result ? <Notice tone="ok">{m.passed}</Notice> : null}
					{/* Every attempt after a pass, but the one just reported above (not twice). */}
					{quiz.history.some((a) => a.attemptNumber !== result?.attemptNumber) ? (
						<>
							<h3 id="quiz-attempts">{m.yourAttempts}</h3>
							<ol className="quiz-attempts" aria-labelledby="quiz-attempts">
								{quiz.history
									.filter((a) => a.attemptNumber !== result?.attemptNumber)
									.map((a) => (
										<li key={a.attemptNumber}>
											<AttemptReport attempt={a} quiz={q} revealed={quiz.revealed} rule={quiz.revealRule} lang={lang} />
										</li>
									))}
							</ol>
						</>
					) : null}
					{preview ? <p className="hint">{m.previewNote}</p> : null}
					{/* Keyed by the attempt it starts from: with JavaScript the form is rebuilt from that attempt's answers, as without. */}
					<Form
						key={previous ? `${previous.attemptNumber}:${previous.submittedAt}` : 0}
						method="post"
						className="stack"
					>
						<input type="hidden" name="intent" value="submit-quiz" />
						<input type="hidden" name="submission" value={quiz.submissionKey} />
						{previous ? <p className="hint">{previewReview ? m.previewAnswersKept : m.answersKept}</p> : null}
						{q.questions.map((question, i) => (
							<QuestionField key={question.id} question={question} index={i} before={given[question.id]} lang={lang} />
						))}
						<Submit>{preview ? m.previewSubmit : t.plural(m.submit, quiz.attemptsLeft)}</Submit>
					</Form>
				</>
			)}
		</section>
	)
}

/**
 * One stored attempt: its number, date, score and outcome, then per question the learner's answer and
 * whether it was right; the correct answer and explanation only when the page says they are revealed.
 * `attemptsLeft` is given only for the learner's newest attempt.
 */
function AttemptReport({
	attempt,
	quiz,
	revealed,
	rule,
	lang,
	attemptsLeft,
	role = 'note',
	preview = false,
}: {
	attempt: AttemptReview
	quiz: QuizData['public']
	revealed: boolean
	rule: QuizData['revealRule']
	lang: Locale
	attemptsLeft?: number
	role?: 'status' | 'note'
	/** Staff's try in preview: not an attempt, so no number or date, and said to be unsaved. */
	preview?: boolean
}) {
	const t = useI18n()
	const m = t.m.learning.quiz
	const questions = new Map(quiz.questions.map((x) => [x.id, x]))
	/** An answer as the learner saw it: an option's text, True or False, or the text typed. */
	/**
	 * An answer as the learner saw it: an option's text or the text typed, in the question's language;
	 * True, False and "no answer" are the interface's words, in the page's.
	 */
	const shown = (questionId: string, value: string) => {
		const question = questions.get(questionId)
		if (value === '') return m.noAnswer
		if (question?.type === 'true_false') return value === 'true' ? m.trueLabel : m.falseLabel
		const text =
			question?.type === 'multiple_choice' ? (question.options.find((o) => o.id === value)?.text ?? value) : value
		return <span lang={question?.locale ?? lang}>{text}</span>
	}
	return (
		<Notice tone={attempt.passed ? 'ok' : 'error'} role={role}>
			<p>
				<strong>
					{t.format(preview ? m.previewResult : m.result, {
						number: t.number(attempt.attemptNumber),
						score: t.percent(attempt.score),
						correct: t.number(attempt.correctCount),
						total: t.number(attempt.totalCount),
						outcome: attempt.passed ? m.resultPassed : m.resultNotPassed,
					})}
				</strong>
			</p>
			<p className="hint">
				{preview ? m.previewNotSaved : t.format(m.submitted, { date: t.date(attempt.submittedAt) })}
			</p>
			{attemptsLeft === undefined ? null : <p>{attemptsLeft === 0 ? m.noneLeft : t.plural(m.left, attemptsLeft)}</p>}
			<ul className="quiz-feedback">
				{attempt.questions.map((f) => (
					<li key={f.questionId}>
						<span className="feedback-prompt" lang={questions.get(f.questionId)?.locale ?? lang}>
							{questions.get(f.questionId)?.prompt ?? f.questionId}
						</span>{' '}
						<strong>{f.correct ? m.correct : m.notCorrect}</strong>{' '}
						{t.rich(m.yourAnswerWas, {
							answer: shown(f.questionId, f.given),
						})}
						{f.correctAnswer === undefined ? null : (
							<>
								{' '}
								{t.rich(m.correctAnswer, {
									answer: shown(f.questionId, f.correctAnswer),
								})}
							</>
						)}
						{f.explanation ? (
							<>
								{' '}
								<span lang={questions.get(f.questionId)?.locale ?? lang}>{f.explanation}</span>
							</>
						) : null}
					</li>
				))}
			</ul>
			{revealed ? null : <p className="hint">{REVEAL_HINT[rule](m)}</p>}
		</Notice>
	)
}

/** One question of the form, its earlier answer chosen again and marked when it was wrong. */
function QuestionField({
	question,
	index,
	before,
	lang,
}: {
	question: QuizData['public']['questions'][number]
	index: number
	before: AttemptReview['questions'][number] | undefined
	lang: Locale
}) {
	const m = useI18n().m.learning.quiz
	const wrong = Boolean(before && !before.correct)
	const statusId = `question-${index + 1}-status`
	const name = `q:${question.id}`
	return (
		<fieldset
			className={wrong ? 'question question-incorrect' : 'question'}
			aria-describedby={wrong ? statusId : undefined}
		>
			<legend lang={question.locale ?? lang}>
				{index + 1}. {question.prompt}
			</legend>
			{wrong ? (
				<p id={statusId} className="question-status">
					{m.incorrect}
				</p>
			) : null}
			{question.type === 'multiple_choice' ? (
				question.options.map((o) => (
					<label key={o.id} className="choice" lang={question.locale ?? lang}>
						<input type="radio" name={name} value={o.id} defaultChecked={before?.given === o.id} required /> {o.text}
					</label>
				))
			) : question.type === 'true_false' ? (
				<>
					<label className="choice">
						<input type="radio" name={name} value="true" defaultChecked={before?.given === 'true'} required />{' '}
						{m.trueLabel}
					</label>
					<label className="choice">
						<input type="radio" name={name} value="false" defaultChecked={before?.given === 'false'} /> {m.falseLabel}
					</label>
				</>
			) : (
				<label className="field">
					<span>{m.answer}</span>
					<input type="text" name={name} defaultValue={before?.given} autoComplete="off" maxLength={500} required />
				</label>
			)}
		</fieldset>
	)
}

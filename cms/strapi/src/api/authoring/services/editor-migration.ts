/**
 * Moves content written before the course editor of issue 51 (decision 0073) to its fields, once,
 * at every boot (idempotent: what has moved is not found again). Every version of every document
 * (draft and published, every locale) moves as it is stored, without a new save or publish:
 *
 * - a course's pass rule, a JSON box (`passRule`), becomes three plain fields (`passQuizzes`,
 *   `passAssignments`, `passMinimumAverage`), and the JSON is cleared;
 * - a multiple-choice question's right answer, the option's key typed into `correctOptionKey`,
 *   becomes the mark `correct` on that option, and the key field is cleared.
 *
 * The content API serves the same answers before and after (src/utils/view.ts reads either form).
 * It runs after Strapi has made the new columns (bootstrap), on Strapi's own knex.
 * migrateEditorFields takes only what it uses of Strapi, so that tests/authoring/editor-model.test.ts
 * runs it on a knex of its own.
 */
import type { Core } from '@strapi/strapi'

type Knex = Core.Strapi['db']['connection']
/** What the move uses of Strapi: its knex and its log. */
type Host = { db: { connection: Knex }; log: { info(message: string): void } }

const parse = (value: unknown) => {
	if (value === null || value === undefined) return null
	if (typeof value !== 'string') return value
	try {
		return JSON.parse(value)
	} catch {
		return null
	}
}
const bool = (v: unknown) => (typeof v === 'boolean' ? v : null)
const int = (v: unknown) => (Number.isInteger(v) ? v : null)

async function movePassRules(knex: Knex) {
	const rows: { id: number; pass_rule: unknown }[] = await knex('courses')
		.whereNotNull('pass_rule')
		.select('id', 'pass_rule')
	let moved = 0
	for (const row of rows) {
		const rule = parse(row.pass_rule)
		if (rule === null || typeof rule !== 'object') continue
		await knex('courses')
			.where({ id: row.id })
			.update({
				pass_quizzes: bool(rule.quizzes),
				pass_assignments: bool(rule.assignments),
				pass_minimum_average: int(rule.minimumAverage),
				pass_rule: null,
			})
		moved++
	}
	return moved
}

async function moveRightAnswers(knex: Knex) {
	const questions: { id: number; correct_option_key: string }[] = await knex('components_course_questions')
		.whereNotNull('correct_option_key')
		.select('id', 'correct_option_key')
	let moved = 0
	for (const q of questions) {
		const optionIds = knex('components_course_questions_cmps')
			.where({ entity_id: q.id, field: 'options', component_type: 'course.option' })
			.select('cmp_id')
		await knex('components_course_options')
			.whereIn('id', optionIds)
			.update({ correct: knex.raw('CASE WHEN ?? = ? THEN ? ELSE NULL END', ['key', q.correct_option_key, true]) })
		await knex('components_course_questions').where({ id: q.id }).update({ correct_option_key: null })
		moved++
	}
	return moved
}

export async function migrateEditorFields(strapi: Host) {
	const knex = strapi.db.connection
	const [rules, answers] = await knex.transaction(async (trx) => [
		await movePassRules(trx),
		await moveRightAnswers(trx),
	])
	if (rules || answers)
		strapi.log.info(`lms: moved ${rules} pass rules and ${answers} right answers to the editor's fields`)
}

const editorMigration = ({ strapi }: { strapi: Core.Strapi }) => ({
	/** Moves what is still in the older fields (at every boot). */
	run: () => migrateEditorFields(strapi),
})

export type EditorMigration = ReturnType<typeof editorMigration>
export default editorMigration

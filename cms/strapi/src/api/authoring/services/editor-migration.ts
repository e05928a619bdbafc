/**
 * Moves content written before the course editor of issue 51 (decisions 0073 and 0098) to its fields, once,
 * at every boot (idempotent: what has moved is not found again). Every version of every document
 * (draft and published, every locale) moves as it is stored, without a new save or publish:
 *
 * - a course's pass rule, a JSON box (`passRule`), becomes three plain fields (`passQuizzes`,
 *   `passAssignments`, `passMinimumAverage`), and the JSON is cleared;
 * - a multiple-choice question's right answer, the option's key typed into `correctOptionKey`,
 *   becomes the mark `correct` on that option, and the key field is cleared;
 * - categories and tags typed into each course become the site's lists (moveLabels, below).
 *
 * The content API serves the same answers before and after (src/utils/view.ts reads either form).
 * It runs after Strapi has made the new columns (bootstrap), on Strapi's own knex.
 * migrateEditorFields takes only what it uses of Strapi, so that tests/authoring/editor-model.test.ts
 * runs it on a knex of its own.
 */
import type { Core } from '@strapi/strapi'
import { nameField } from '../../../utils/content-types'
import { LIST_FIELDS as LISTS } from './lists'

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

/** A row of the older categories and tags: a course version's label (component), in its order. */
type OldLabel = {
	link: number
	field: 'categories' | 'tags'
	labelId: number
	slug: string
	name: string | null
	course: number
	documentId: string
	locale: string | null
	site: string | null
	published: boolean
}

/**
 * Categories and tags typed into each course (a `course.label` component per label and locale,
 * decision 0073) become the site's lists (decision 0098): one category or tag per site and slug,
 * named in each locale as the courses named it (en's name, or the slug), and every version of a
 * course lists its en version's labels in their order, as the content API served them. The
 * component's rows are deleted once moved. Strapi's own queries make the lists' documents and
 * relations (their ids, order and link tables are Strapi's).
 */
export async function moveLabels(strapi: Pick<Core.Strapi, 'db' | 'log'>) {
	const knex = strapi.db.connection
	if (!(await knex.schema.hasTable('components_course_labels'))) return
	const rows: OldLabel[] = (
		await knex('courses_cmps as l')
			.join('components_course_labels as c', 'c.id', 'l.cmp_id')
			.join('courses as o', 'o.id', 'l.entity_id')
			.where('l.component_type', 'course.label')
			.whereIn('l.field', Object.keys(LISTS))
			.orderBy([{ column: 'o.id' }, { column: 'l.field' }, { column: 'l.order' }])
			.select(
				'l.id as link',
				'l.field',
				'c.id as labelId',
				'c.slug',
				'c.name',
				'o.id as course',
				'o.document_id as documentId',
				'o.locale',
				'o.site',
				knex.raw('(o.published_at is not null) as published'),
			)
	).map((r: OldLabel) => ({ ...r, published: Boolean(r.published) }))
	if (!rows.length) return
	// The lists: one document per site, list and slug, named by en's label and each locale's.
	const made = new Map<string, number>()
	const key = (site: unknown, field: string, slug: string) => `${site} ${field} ${slug}`
	for (const field of Object.keys(LISTS) as (keyof typeof LISTS)[]) {
		const uid = LISTS[field]
		const bySlug = new Map<string, { site: string | null; slug: string; names: Record<string, string> }>()
		for (const r of rows.filter((r) => r.field === field && r.slug)) {
			const list = bySlug.get(key(r.site, field, r.slug)) ?? { site: r.site, slug: r.slug, names: {} }
			if (r.name && !list.names[r.locale ?? 'en']) list.names[r.locale ?? 'en'] = r.name
			bySlug.set(key(r.site, field, r.slug), list)
		}
		for (const [k, { site, slug, names }] of bySlug) {
			const found: { id: number } | null = await strapi.db.query(uid).findOne({ where: { site, slug }, select: ['id'] })
			const locales = Object.fromEntries(['es', 'fr', 'de', 'pt', 'zh'].map((l) => [nameField(l), names[l] ?? null]))
			const doc: { id: number } =
				found ??
				(await strapi.db.query(uid).create({
					data: { site, slug, name: names.en ?? Object.values(names)[0] ?? slug, ...locales, publishedAt: new Date() },
				}))
			made.set(k, doc.id)
		}
	}
	// Every version lists what its document's en version (same state) listed, else its own.
	const versions = [...new Map(rows.map((r) => [r.course, r])).values()]
	for (const v of versions)
		for (const field of Object.keys(LISTS)) {
			const en = rows.find(
				(r) => r.documentId === v.documentId && r.published === v.published && (r.locale ?? 'en') === 'en',
			)
			const from = rows.filter((r) => r.course === (en ? en.course : v.course) && r.field === field && r.slug)
			const ids = [...new Set(from.map((r) => made.get(key(r.site, field, r.slug))))]
			await strapi.db.query('api::course.course').update({ where: { id: v.course }, data: { [field]: ids } })
		}
	await knex('courses_cmps')
		.whereIn(
			'id',
			rows.map((r) => r.link),
		)
		.del()
	await knex('components_course_labels')
		.whereIn(
			'id',
			rows.map((r) => r.labelId),
		)
		.del()
	strapi.log.info(
		`lms: moved ${rows.length} categories and tags of ${versions.length} course versions to the sites' lists`,
	)
}

const editorMigration = ({ strapi }: { strapi: Core.Strapi }) => ({
	/** Moves what is still in the older fields (at every boot). */
	run: async () => {
		await migrateEditorFields(strapi)
		await moveLabels(strapi)
	},
})

export type EditorMigration = ReturnType<typeof editorMigration>
export default editorMigration

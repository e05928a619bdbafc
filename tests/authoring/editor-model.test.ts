import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
// The translation panel's reading (plain JavaScript the admin bundle imports).
import { missingTranslations } from '../../cms/strapi/src/admin/missing-translations.ts'

// The course editor's model (decision 0073) without a running Strapi: the ids and kinds filled in
// for a teacher (cms/strapi/src/utils/autofill.ts) and the move of older content at boot
// (src/api/authoring/services/editor-migration.ts) on Strapi's own knex and SQLite driver, with the
// tables Strapi makes. Both as Strapi compiled them to cms/strapi/dist/ (scripts/test-authoring.sh).
const require = createRequire(import.meta.url)
const { fillIds } = require('../../cms/strapi/dist/src/utils/autofill.js')
const { migrateEditorFields } = require('../../cms/strapi/dist/src/api/authoring/services/editor-migration.js')
const knexFactory = require('../../cms/strapi/node_modules/knex')

describe('the ids and kinds a teacher never types', () => {
	it('makes slugs from titles (unique across the course), keys q1…, a…, and kinds from what is filled in', () => {
		const data: any = {
			title: 'Ça va? Éh',
			modules: [
				{
					title: 'First steps',
					entries: [
						{ title: 'Welcome', type: 'lesson' },
						{
							title: 'Welcome',
							type: 'lesson',
							quiz: {
								questions: [
									{ prompt: 'x', type: 'multiple_choice', options: [{ text: 'A' }, { text: 'B', correct: true }] },
									{ prompt: 'y', type: 'multiple_choice', correct: false, options: [] },
									{ prompt: 'z', type: 'multiple_choice', acceptedAnswers: 'GET' },
								],
							},
						},
					],
				},
				{ title: 'First steps', entries: [{ title: '', type: 'lesson', assignment: { maxScore: 10 } }] },
			],
		}
		expect(fillIds(data)).toBe(true)
		expect(data.slug).toBe('ca-va-eh')
		expect(data.modules.map((m: any) => m.slug)).toEqual(['first-steps', 'first-steps-2'])
		const entries = data.modules.flatMap((m: any) => m.entries)
		expect(entries.map((e: any) => [e.slug, e.type])).toEqual([
			['welcome', 'lesson'],
			['welcome-2', 'quiz'],
			['entry-2-1', 'assignment'],
		])
		const questions = entries[1].quiz.questions
		expect(questions.map((q: any) => [q.key, q.type])).toEqual([
			['q1', 'multiple_choice'],
			['q2', 'true_false'],
			['q3', 'short_answer'],
		])
		expect(questions[0].options.map((o: any) => o.key)).toEqual(['a', 'b'])
	})

	it('never changes an id already stored', () => {
		const data: any = {
			title: 'New title',
			slug: 'old',
			modules: [
				{
					slug: 'm',
					title: 'Other',
					entries: [
						{
							slug: 'e',
							title: 'Else',
							type: 'quiz',
							quiz: { questions: [{ key: 'k', prompt: 'p', options: [{ key: 'x', text: 'X' }, { text: 'Y' }] }] },
						},
					],
				},
			],
		}
		expect(fillIds(data)).toBe(false)
		expect([data.slug, data.modules[0].slug, data.modules[0].entries[0].slug]).toEqual(['old', 'm', 'e'])
		expect(data.modules[0].entries[0].quiz.questions[0].key).toBe('k')
		expect(data.modules[0].entries[0].quiz.questions[0].options.map((o: any) => o.key)).toEqual(['x', 'b'])
	})

	it("gives a translation's modules and entries en's slugs and kinds by place, not slugs of the translated titles", () => {
		const en = {
			modules: [
				{
					slug: 'first-steps',
					entries: [
						{ slug: 'welcome', type: 'lesson' },
						{ slug: 'check', type: 'quiz' },
					],
				},
				{ slug: 'practice', entries: [{ slug: 'hand-in', type: 'assignment' }] },
			],
		}
		const es: any = {
			slug: 'a-walk',
			title: 'Un paseo',
			modules: [
				{ title: 'Primeros pasos', entries: [{ title: 'Bienvenida' }, { title: 'Prueba' }] },
				// A module en does not have (yet): a slug of its own title.
				{ title: 'Práctica', entries: [{ title: 'Entrega' }, { title: 'Extra' }] },
				{ title: 'Más' },
			],
		}
		expect(fillIds(es, en)).toBe(false)
		expect(es.modules.map((m: any) => m.slug)).toEqual(['first-steps', 'practice', 'mas'])
		expect(es.modules.flatMap((m: any) => m.entries ?? []).map((e: any) => [e.slug, e.type])).toEqual([
			['welcome', 'lesson'],
			['check', 'quiz'],
			['hand-in', 'assignment'],
			['extra', undefined],
		])
	})
})

describe('content of the older model moves to the editor fields at boot', () => {
	it('moves pass rules and right answers of every version once, and nothing else', async () => {
		const knex = knexFactory({
			client: 'better-sqlite3',
			connection: { filename: ':memory:' },
			useNullAsDefault: true,
		})
		try {
			await knex.schema.createTable('courses', (t: any) => {
				t.increments('id')
				t.json('pass_rule')
				t.boolean('pass_quizzes')
				t.boolean('pass_assignments')
				t.integer('pass_minimum_average')
			})
			await knex.schema.createTable('components_course_questions', (t: any) => {
				t.increments('id')
				t.string('correct_option_key')
			})
			await knex.schema.createTable('components_course_options', (t: any) => {
				t.increments('id')
				t.string('key')
				t.boolean('correct')
			})
			await knex.schema.createTable('components_course_questions_cmps', (t: any) => {
				t.increments('id')
				t.integer('entity_id')
				t.integer('cmp_id')
				t.string('component_type')
				t.string('field')
			})
			await knex('courses').insert([
				{ pass_rule: JSON.stringify({ quizzes: true, assignments: false, minimumAverage: 60 }) },
				{ pass_rule: JSON.stringify({ minimumAverage: 50 }) },
				{ pass_rule: null },
			])
			await knex('components_course_questions').insert([{ correct_option_key: 'post' }, { correct_option_key: null }])
			await knex('components_course_options').insert([
				{ key: 'get' },
				{ key: 'post' },
				{ key: 'post' }, // another question's option with the same key: not marked
			])
			await knex('components_course_questions_cmps').insert([
				{ entity_id: 1, cmp_id: 1, component_type: 'course.option', field: 'options' },
				{ entity_id: 1, cmp_id: 2, component_type: 'course.option', field: 'options' },
				{ entity_id: 2, cmp_id: 3, component_type: 'course.option', field: 'options' },
			])
			const logged: string[] = []
			const strapi = { db: { connection: knex }, log: { info: (m: string) => logged.push(m) } }
			await migrateEditorFields(strapi)
			const courses = await knex('courses').orderBy('id')
			expect(
				courses.map((c: any) => [c.pass_rule, c.pass_quizzes, c.pass_assignments, c.pass_minimum_average]),
			).toEqual([
				[null, 1, 0, 60],
				[null, null, null, 50],
				[null, null, null, null],
			])
			const options = await knex('components_course_options').orderBy('id')
			expect(options.map((o: any) => o.correct)).toEqual([null, 1, null])
			expect((await knex('components_course_questions').orderBy('id')).map((q: any) => q.correct_option_key)).toEqual([
				null,
				null,
			])
			expect(logged).toEqual(["lms: moved 2 pass rules and 1 right answers to the editor's fields"])
			// A second boot finds nothing left to move.
			await migrateEditorFields(strapi)
			expect(logged).toHaveLength(1)
		} finally {
			await knex.destroy()
		}
	})
})

describe("the course form's words in the admin's languages", () => {
	const { FIELDS } = require('../../cms/strapi/dist/src/utils/editor-fields.js')
	const LOCALES = ['es', 'fr', 'de', 'pt', 'zh-Hans']
	const messages = (locale: string) => require(`../../cms/strapi/src/admin/translations/${locale}.json`)

	it('has every help line in each language, and no translation of a field the form does not have', () => {
		const help = Object.entries(FIELDS as Record<string, Record<string, string[]>>).flatMap(([uid, fields]) =>
			Object.entries(fields).flatMap(([field, [, line]]) => (line ? [`lms.help.${uid}.${field}`] : [])),
		)
		expect(help.length).toBeGreaterThan(40)
		for (const locale of LOCALES) {
			const known = messages(locale)
			expect(
				help.filter((key) => !known[key]),
				locale,
			).toEqual([])
			const stale = Object.keys(known).filter((key) => {
				const m = /^lms\.(?:help|placeholder)\.(.+)\.([^.]+)$/.exec(key)
				return m !== null && !FIELDS[m[1]]?.[m[2]]
			})
			expect(stale, locale).toEqual([])
		}
	})
})

describe("what a course's translation still lacks (the edit view's side panel)", () => {
	const en = {
		modules: [
			{
				slug: 'first-steps',
				title: 'First steps',
				entries: [
					{ slug: 'welcome', title: 'Welcome' },
					{ slug: 'check', title: 'Check' },
				],
			},
			{ slug: 'practice', title: 'Practice', entries: [{ slug: 'hand-in', title: 'Hand in' }] },
		],
	}
	it('names each module and entry of en with no titled counterpart of the same slug, in outline order', () => {
		const es = {
			modules: [
				{
					slug: 'first-steps',
					title: 'Primeros pasos',
					entries: [
						{ slug: 'welcome', title: 'Bienvenida' },
						{ slug: 'check', title: '  ' },
					],
				},
			],
		}
		expect(missingTranslations(en, es)).toEqual([{ module: 'First steps', entry: 'Check' }, { module: 'Practice' }])
		// Not saved yet: every module; wholly translated: nothing; a module matched by slug, not by place.
		expect(missingTranslations(en, null)).toEqual([{ module: 'First steps' }, { module: 'Practice' }])
		const whole = { modules: [...en.modules].reverse().map((m) => ({ ...m, title: `${m.title} (es)` })) }
		expect(missingTranslations(en, whole)).toEqual([])
		// Malformed versions (what a broken row could hold) name what they lack rather than throw.
		expect(missingTranslations(en, { modules: 'x' })).toHaveLength(2)
		expect(missingTranslations(en, { modules: [null, { slug: 'practice', entries: [null] }] })).toEqual([
			{ module: 'First steps' },
			{ module: 'Practice', entry: 'Hand in' },
		])
	})
})

import { expect, type Locator, type Page } from '@playwright/test'

/**
 * A teacher's walk through Strapi's admin panel (issue 51): every pointer click and every field
 * typed into goes through here, so that the walk can say what it cost. Nothing is typed as JSON.
 */
export class Walk {
	clicks = 0
	typed = 0
	json = 0
	readonly started = performance.now()
	readonly log: string[] = []
	constructor(readonly page: Page) {}

	async click(target: Locator, why: string) {
		await target.click()
		this.clicks++
		this.log.push(`click ${this.clicks}: ${why}`)
	}

	/** A field clicked into, then typed into (one click, one field). */
	async type(target: Locator, text: string, why: string) {
		await target.click()
		await target.fill(text)
		this.clicks++
		this.typed++
		this.log.push(`click ${this.clicks} and type: ${why}`)
	}

	/** A JSON box (a code editor) typed into: what the walk must never need. */
	async typeJson(target: Locator, json: unknown, why: string) {
		await target.click()
		await this.page.keyboard.press('ControlOrMeta+a')
		await this.page.keyboard.insertText(JSON.stringify(json))
		this.clicks++
		this.json++
		this.typed++
		this.log.push(`click ${this.clicks} and JSON typed: ${why}`)
	}

	/** Text typed into a Markdown editor (Strapi's rich text: a code editor without a form field). */
	async typeRich(editor: Locator, text: string, why: string) {
		// The editor takes focus only once it is set up: text typed before goes nowhere (it did in one
		// walk in three). One click of the teacher's; asked again until the editor has focus, and the
		// text checked where it was meant to go.
		await expect(async () => {
			await editor.click()
			await expect(editor).toHaveClass(/CodeMirror-focused/, { timeout: 1_000 })
		}).toPass({ timeout: 20_000 })
		await this.page.keyboard.insertText(text)
		// CodeMirror reads what was typed into its contenteditable a moment later, and only then tells
		// the form: a save clicked at once (the Spanish version's next click) stored the field empty.
		await expect
			.poll(() =>
				editor.evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()),
			)
			.toContain(text)
		this.clicks++
		this.typed++
		this.log.push(`click ${this.clicks} and type: ${why}`)
	}

	/** Picks `option` in the select `select` (two clicks). */
	async pick(select: Locator, option: string | RegExp, why: string) {
		await this.click(select, `${why}: open`)
		await this.click(this.page.getByRole('option', { name: option }).first(), `${why}: ${option}`)
	}

	figures() {
		return {
			clicks: this.clicks,
			typed: this.typed,
			json: this.json,
			seconds: (performance.now() - this.started) / 1000,
		}
	}
}

/** Signs in to the admin panel (remembered: the token is kept in the browser's storage). */
export async function signIn(page: Page, base: string, email: string, password: string) {
	await page.goto(`${base}/admin/auth/login`)
	await page.getByLabel(/email/i).fill(email)
	await page.getByLabel(/password/i).fill(password)
	await page.getByLabel(/remember me/i).check()
	await page.getByRole('button', { name: /login|log in|sign in/i }).click()
	await page.waitForURL(/\/admin(\/)?$/)
}

/**
 * The course of the walk, written in the course form from a blank one: two modules, a lesson with
 * formatted text, a quiz with one question of each type, an assignment with a due date and points;
 * what passing takes; published. Fields are found by their form names
 * (`modules.0.entries.1.title`), buttons by what they say. The form asks no ids (slugs and keys
 * are made from titles) and no kinds (a quiz is an entry with quiz settings, a true/false question
 * one with "the statement is true" set…): src/utils/autofill.ts.
 */
export async function writeCourse(w: Walk) {
	const page = w.page
	const f = (name: string) => page.locator(`[name="${name}"]`)
	const empty = () => page.getByRole('button', { name: /No entry yet/ })
	const add = () => page.getByRole('button', { name: /Add an entry/ })
	await w.type(f('title'), 'A walk through the editor', 'title')
	await w.type(f('summary'), 'Written by a teacher in the admin.', 'summary')
	// Quizzes and graded assignments must be passed unless switched off: the average is the one rule set.
	await w.type(f('passMinimumAverage'), '50', 'average needed to pass')
	// A new course starts with a module holding one entry, both open (decision 0093).
	await w.type(f('modules.0.title'), 'First steps', 'module 1 title')
	await w.type(f('modules.0.entries.0.title'), 'Welcome', 'lesson title')
	await w.typeRich(page.locator('.CodeMirror').last(), 'Read **this** first.', 'lesson text')
	await w.click(add().first(), 'add entry 2')
	await w.type(f('modules.0.entries.1.title'), 'Check', 'quiz title')
	// The entry's quiz and assignment blocks are the last two "No entry yet".
	// Quiz settings come with their first question, open.
	const assignmentBlock = page.getByText('Assignment settings', { exact: true })
	await expect(assignmentBlock).toHaveCount(1)
	await w.click(empty().nth(-2), 'add the quiz settings (the entry is a quiz)')
	// Only the fields that apply (issue 51): a quiz's entry no longer offers assignment settings.
	await expect(assignmentBlock).toHaveCount(0)
	const q = (i: number, n: string) => f(`modules.0.entries.1.quiz.questions.${i}.${n}`)
	await w.type(q(0, 'prompt'), 'Which method changes data?', 'question 1')
	// A new question offers each kind of answer; the first one given hides the others.
	await expect(q(0, 'acceptedAnswers')).toHaveCount(1)
	await w.click(empty().last(), 'add choice 1')
	await w.type(q(0, 'options.0.text'), 'GET', 'choice 1')
	await expect(q(0, 'acceptedAnswers')).toHaveCount(0)
	await expect(q(0, 'correct')).toHaveCount(0)
	await w.click(add().first(), 'add choice 2')
	await w.type(q(0, 'options.1.text'), 'POST', 'choice 2')
	await w.click(q(0, 'options.1.correct'), 'choice 2 is the right answer')
	await w.click(add().nth(1), 'add question 2')
	await w.type(q(1, 'prompt'), 'GET is safe.', 'question 2')
	await w.click(q(1, 'correct'), 'question 2: the statement is true')
	await expect(q(1, 'acceptedAnswers')).toHaveCount(0)
	// Question 1 folded when question 2 opened: the questions' "Add an entry" is the first.
	await w.click(add().first(), 'add question 3')
	await w.type(q(2, 'prompt'), 'Which method reads a page?', 'question 3')
	await w.type(q(2, 'acceptedAnswers'), 'GET\nget', 'question 3 accepted answers')
	await expect(q(2, 'correct')).toHaveCount(0)
	// A new module comes with its first entry, open.
	await w.click(add().last(), 'add module 2')
	await w.type(f('modules.1.title'), 'Practice', 'module 2 title')
	const a = (n: string) => f(`modules.1.entries.0.${n}`)
	await w.type(a('title'), 'Hand in a page', 'assignment title')
	// In the school's time zone, named beside the field (decision 0095).
	await w.type(a('dueAt'), '2026-12-31T17:00', 'due date and time')
	await w.click(empty().last(), 'add the assignment settings (the entry is an assignment)')
	await w.type(a('assignment.maxScore'), '10', 'assignment points')
}

/** Saves the new course's draft, opens its preview and closes it again: the preview's address. */
export async function saveAndPreview(w: Walk) {
	const page = w.page
	await w.click(page.getByRole('button', { name: /^Save$/ }), 'save')
	await page.waitForURL((url) => !url.pathname.endsWith('/create'), { timeout: 30_000 })
	await w.click(page.getByRole('link', { name: /Open preview/i }), 'open the preview')
	const frame = page.locator('iframe').first()
	await frame.waitFor({ timeout: 30_000 })
	const src = await frame.getAttribute('src')
	// What the pane shows: the app's page of the draft (decision 0100); a page that refused to be
	// framed would leave it blank, and these would not be found.
	const shown = page.frameLocator('iframe').first()
	const banner = await shown.locator('.banner-preview').innerText({ timeout: 30_000 })
	const title = await shown.locator('h1').innerText()
	const close = page
		.getByRole('link', { name: /Close preview/i })
		.or(page.getByRole('button', { name: /Close preview/i }))
	await w.click(close.first(), 'close the preview')
	return { src, banner, title }
}

/** Publishes the course. */
export async function publish(w: Walk) {
	const page = w.page
	await w.click(page.getByRole('button', { name: /^Publish$/ }), 'publish')
	try {
		await page
			.getByText(/Published document/i)
			.first()
			.waitFor({ timeout: 30_000 })
	} catch (error) {
		// What the admin said instead (a refusal, a field left wrong), and how the form looked.
		const said = await page.locator('[role="alert"], [role="status"], [role="dialog"]').allInnerTexts()
		await page.screenshot({ path: '.tmp/authoring/walk-publish-failed.png', fullPage: true })
		throw new Error(`not published: ${JSON.stringify(said)}`, { cause: error })
	}
}

/**
 * The course's Spanish version, after the English one is published: the title, the first module
 * and its lesson translated, then published. The translation's modules and entries take en's slugs
 * by place (src/utils/autofill.ts): what is left untranslated is served from en, field by field.
 */
export async function translateToSpanish(w: Walk) {
	const page = w.page
	const f = (name: string) => page.locator(`[name="${name}"]`)
	await w.pick(page.getByRole('combobox', { name: /Locales/i }), /Spanish/, 'switch to the Spanish version')
	await page.waitForURL(/locale[\]%5D]*=es/)
	// The new version's form is set up once its document is loaded: typing before that is lost.
	await page.getByRole('heading', { name: /Untitled/ }).waitFor()
	await page.waitForLoadState('networkidle')
	await w.type(f('title'), 'Un paseo por el editor', 'Spanish title')
	// The new version starts, as a new course does, with a module holding one entry, both open.
	await w.type(f('modules.0.title'), 'Primeros pasos', 'Spanish module 1 title')
	await w.type(f('modules.0.entries.0.title'), 'Bienvenida', 'Spanish lesson title')
	// The lesson's text editor comes after the course's description's: wait for it, or the text goes there.
	await page.waitForFunction(() => document.querySelectorAll('.CodeMirror').length >= 2)
	await w.typeRich(page.locator('.CodeMirror').last(), 'Lee **esto** primero.', 'Spanish lesson text')
	// Saved first: Strapi's publish of a version not yet saved checks the author's "own site" condition
	// against a document without its site and refuses (the save creates the version, the site then comes
	// from the stored document: src/api/authoring/services/guard.ts).
	await w.click(page.getByRole('button', { name: /^Save$/ }), 'save the Spanish version')
	await page
		.getByText(/Saved document/i)
		.first()
		.waitFor({ timeout: 30_000 })
	// What the Spanish version still lacks, by English title in the side panel (issue 51): the first
	// module's quiz and the whole second module; the lesson it has is not named.
	const missing = page.getByTestId('translation-missing')
	await expect(missing).toContainText('First steps › Check')
	await expect(missing).toContainText('Practice (the whole module)')
	await expect(missing).not.toContainText('Welcome')
	await publish(w)
}

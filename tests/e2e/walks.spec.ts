// Issue 24, judged by a walk per role at 360 px with JavaScript on and off (the js and no-js projects):
// each walk goes through what a new learner, a tenant admin, a course admin and the super admin do,
// asserting what they see. The separate specs (quiz-feedback, account-self-service, admin-*, …) go deeper.
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test'
import { listProgress, putEnrollment } from '#db/learning.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { findUserByEmail } from '#db/users.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { acmeAccount, at, DEMO_PASSWORD, e2eDatabase, mailedLink, mailsTo, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const GLOBEX = 'globex.localhost'
const COURSE = '/learn/course/intro-to-web'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/

test.use({ viewport: { width: 360, height: 780 } })
// Each walk is a few dozen page loads; on two cores shared by both projects and other work they have taken over a minute.
test.describe.configure({ timeout: 180_000 })

/** The page never scrolls sideways on the phone. */
async function fitsThePhone(page: Page, label: string) {
	const { width, screen, wide } = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		screen: window.innerWidth,
		// What sticks out, for the message: the innermost elements past the right edge.
		wide: [...document.body.querySelectorAll('*')]
			.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
			.filter((el, _, all) => !all.some((other) => other !== el && el.contains(other)))
			.slice(0, 3)
			.map((el) => `<${el.tagName.toLowerCase()} class="${el.className}"> ${el.textContent?.slice(0, 60)}`),
	}))
	expect(width, `${label}: no sideways scroll at 360 px (${wide.join('; ')})`).toBeLessThanOrEqual(screen)
}

/** A same-site link opens: no 404, no error page (the CSV export is a download, fetched in the page). */
async function opens(page: Page, href: string) {
	const url = new URL(href, page.url()).toString()
	if (href.endsWith('/export')) {
		const status = await page.evaluate((u) => fetch(u).then((r) => r.status), url).catch(() => null)
		if (status !== null) expect(status, `${href} opens`).toBeLessThan(400)
		return
	}
	const response = await page.goto(url)
	expect(response?.status(), `${href} opens`).toBeLessThan(400)
	await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/not found/i)
}

/** The language a screen reader reads an element in: its own `lang` or the nearest one around it. */
const langOf = (locator: Locator) => locator.evaluate((el) => el.closest('[lang]')?.getAttribute('lang') ?? null)

/** What makes a button look usable or not, as the browser draws it. */
const looks = (locator: Locator) =>
	locator.evaluate((el) => {
		const s = getComputedStyle(el)
		return { cursor: s.cursor, color: s.color, background: s.backgroundColor, border: s.borderTopStyle }
	})

const name = (info: TestInfo, who: string) => `${who} ${info.project.name} ${Date.now() % 100000}`

test('a new learner: catalogue, sign-up keeping the course, enroll, lessons, quiz feedback, account, sign out', async ({
	page,
}, info) => {
	const email = uniqueEmail(info, 'walker')
	const learner = name(info, 'Walker')

	// Language: in Chinese, what the content has only in English is marked English inside a Chinese page.
	await page.goto(at(ACME, '/zh/learn'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
	const about = page.locator('header').getByRole('link', { name: 'About Acme Academy' })
	await expect(about).toHaveAttribute('lang', 'en')
	await expect(page.getByRole('heading', { name: 'Advanced CSS' })).toHaveAttribute('lang', 'en')
	expect(await langOf(page.getByRole('heading', { name: '网络入门' }))).toBe('zh')
	for (const summary of [
		'Layout, custom properties and motion for production sites.',
		'How browsers and servers talk, how forms send data, and how to build pages that work for everyone.',
	])
		expect(await langOf(page.getByText(summary)), `"${summary}" is read as English`).toBe('en')
	await fitsThePhone(page, 'catalogue in Chinese')
	await page.goto(at(ACME, `/zh${COURSE}`))
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('网络入门')
	expect(await langOf(page.getByRole('heading', { level: 1 }))).toBe('zh')
	expect(await langOf(page.getByText(/^A short, hands-on course\./)), 'the English description').toBe('en')
	expect(await langOf(page.locator('header').getByRole('link', { name: 'About Acme Academy' }))).toBe('en')
	// In Spanish the content has its own words: marked Spanish, nothing marked English but the language switcher's own name.
	await page.goto(at(ACME, '/es/learn'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	expect(await langOf(page.locator('header').getByRole('link', { name: 'Sobre la Academia Acme' }))).toBe('es')
	expect(await langOf(page.getByRole('heading', { name: 'CSS avanzado' }))).toBe('es')
	expect(await langOf(page.getByText(/^Maquetación, propiedades personalizadas/))).toBe('es')
	await expect(page.locator('[lang="en"]:not(option)')).toHaveCount(0)

	// Anonymous: the catalogue, a course, sign-up that keeps the course through verification.
	await page.goto(at(ACME, '/learn'))
	await page.getByRole('link', { name: 'Introduction to the Web' }).first().click()
	await expect(page).toHaveURL(at(ACME, COURSE))
	await fitsThePhone(page, 'course landing')
	await page.getByRole('button', { name: 'Sign in to enroll' }).click()
	await page.getByRole('link', { name: 'Create an account' }).click()
	await expect(page).toHaveURL(/\/learn\/sign-up\?callbackUrl=%2Flearn%2Fcourse%2Fintro-to-web/)
	await page.getByLabel('Name').fill(learner)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await expect(page.getByText('Check your email')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Create account' })).toHaveCount(0)
	await fitsThePhone(page, 'sign-up notice')
	const link = await mailedLink(email, '/learn/verify/')
	expect(mailsTo(email)).toHaveLength(1)

	// Signing in before confirming: told to confirm, and reminded by a new confirmation email.
	await page.goto(at(ACME, '/learn/sign-in'))
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('first-good-secret')
	await page.getByRole('button', { name: 'Sign in' }).click()
	await expect(
		page.getByText('Confirm your email address first: we have sent a new confirmation link to it.'),
	).toBeVisible()
	await expect(page).toHaveURL(at(ACME, '/learn/sign-in'))
	await fitsThePhone(page, 'sign-in of an unconfirmed address')
	await expect.poll(() => mailsTo(email).length, { message: 'a second confirmation email arrives' }).toBe(2)
	const reminder = mailsTo(email)[1]
	expect(reminder.text).toMatch(/\/learn\/verify\/\S+/)
	expect(reminder.text).not.toContain(link)

	// The first link still confirms (the page asks, its button confirms), and goes back to the course.
	await page.goto(at(ACME, link))
	await fitsThePhone(page, 'the confirm step of the link')
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await expect(page).toHaveURL(new RegExp(`${COURSE}(/enroll)?\\?notice=email-confirmed$`))
	await expect(page.getByText('Your email address is confirmed.')).toBeVisible()
	// A second click, signed in: already confirmed, and a way on to the course.
	await page.goto(at(ACME, link))
	await expect(page.getByText('Your email address is already confirmed.')).toBeVisible()
	await page.getByRole('link', { name: 'Continue' }).click()
	await expect(page).toHaveURL(new RegExp(`${COURSE}(/enroll)?`))

	// Enroll.
	await page.getByRole('button', { name: 'Enroll for free' }).click()
	await expect(page.getByText('You are enrolled. Welcome to the course!')).toBeVisible()
	await fitsThePhone(page, 'enrolled course')

	// The first lesson: its title once, the next entry shown locked with why.
	await page.goto(at(ACME, `${COURSE}/entry/what-is-http`))
	const title = (await page.getByRole('heading', { level: 1 }).textContent())!.trim()
	expect(title.length).toBeGreaterThan(0)
	await expect(page.getByRole('heading', { name: title, exact: true })).toHaveCount(1)
	await expect(page.getByText('locked: finish the earlier entries first')).toBeVisible()
	await expect(page.getByRole('link', { name: /HTML forms/ })).toHaveCount(0)
	await fitsThePhone(page, 'lesson')

	// "Mark as complete" says so, then shows the next entry.
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByText('Marked as complete. Here is the next entry.')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'HTML forms', exact: true })).toHaveCount(1)
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByText('Marked as complete. Here is the next entry.')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Basics quiz', level: 1 })).toBeVisible()

	// A failed attempt: right or wrong only, no answers given away, the learner's answers kept.
	await page.getByLabel('POST', { exact: true }).check()
	await page.getByLabel('False', { exact: true }).check()
	await page.getByLabel('Your answer').fill('div')
	// Choices are touch targets of at least 24 px.
	for (const radio of await page.getByRole('radio').all()) {
		const box = (await radio.boundingBox())!
		expect(Math.min(box.width, box.height), 'a radio button is at least 24 px').toBeGreaterThanOrEqual(24)
	}
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await expect(page.getByText('Attempt 1: 33% · 1 of 3 correct · Not passed')).toBeVisible()
	await expect(page.getByText('2 attempts left.')).toBeVisible()
	await expect(page.getByText(/Correct answer:/)).toHaveCount(0)
	await expect(page.getByText('The correct answers are shown once you pass or have used every attempt.')).toBeVisible()
	await expect(page.getByLabel('POST', { exact: true })).toBeChecked()
	await expect(page.getByLabel('False', { exact: true })).toBeChecked()
	await expect(page.getByLabel('Your answer')).toHaveValue('div')
	await expect(page.getByText('Incorrect', { exact: true })).toHaveCount(2)
	await fitsThePhone(page, 'quiz feedback')

	// Two more failed attempts: the quiz is review-only and lists every attempt with its answers, score and feedback.
	await page.getByLabel('GET', { exact: true }).check()
	await page.getByLabel('Your answer').fill('span')
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await expect(page.getByText('Attempt 2: 0% · 0 of 3 correct · Not passed')).toBeVisible()
	await expect(page.getByText('1 attempt left.')).toBeVisible()
	await page.getByLabel('POST', { exact: true }).check()
	await page.getByLabel('True', { exact: true }).check()
	await page.getByLabel('Your answer').fill('div')
	await page.getByRole('button', { name: /Submit answers \(1 attempt left\)/ }).click()
	await expect(page.getByText('You have used all 3 attempts. This quiz is now review-only.')).toBeVisible()
	await expect(page.getByRole('button', { name: /Submit answers/ })).toHaveCount(0)
	const attempts = page.getByRole('list', { name: 'Your attempts' }).locator(':scope > li')
	await expect(attempts).toHaveCount(3)
	const expected = [
		['Attempt 1: 33% · 1 of 3 correct · Not passed', ['POST', 'False', 'div']],
		['Attempt 2: 0% · 0 of 3 correct · Not passed', ['GET', 'False', 'span']],
		['Attempt 3: 67% · 2 of 3 correct · Not passed', ['POST', 'True', 'div']],
	] as const
	for (const [i, [score, answers]] of expected.entries()) {
		const attempt = attempts.nth(i)
		await expect(attempt).toContainText(score)
		await expect(attempt).toContainText(/Submitted /)
		for (const answer of answers) await expect(attempt).toContainText(`Your answer: ${answer}.`)
		// Every attempt is used: the answers are revealed, with their explanations.
		for (const correct of ['POST', 'True', 'form']) await expect(attempt).toContainText(`Correct answer: ${correct}.`)
		await expect(attempt.getByText('GET must not change data; POST is meant for it.')).toBeVisible()
	}
	await expect(attempts.nth(2).getByText('Correct.', { exact: true })).toHaveCount(2)
	await expect(attempts.nth(2).getByText('Not correct.', { exact: true })).toHaveCount(1)
	// Nothing speaks of attempts left about attempts in the past.
	await expect(page.getByText(/attempts? left/)).toHaveCount(0)
	await fitsThePhone(page, 'review-only quiz')

	// Account: a new name and a new password, each acknowledged.
	await page.goto(at(ACME, '/learn/account'))
	await fitsThePhone(page, 'account')
	const nameForm = page.locator('form', { has: page.getByRole('button', { name: 'Save name' }) })
	await nameForm.getByRole('textbox').fill(`${learner} Renamed`)
	await page.getByRole('button', { name: 'Save name' }).click()
	await expect(page.getByText('Name saved.')).toBeVisible()
	const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Save password' }) })
	await passwordForm.getByLabel('Current password').fill('first-good-secret')
	await passwordForm.getByLabel('New password').fill('second-good-secret')
	await page.getByRole('button', { name: 'Save password' }).click()
	await expect(page.getByText('Your password was changed.')).toBeVisible()
	await page.goto(at(ACME, '/learn/dashboard'))
	await expect(page.getByRole('heading', { name: `Welcome, ${learner} Renamed` })).toBeVisible()
	// The course's progress is said once: the bar is hidden from screen readers, the text beside it says it.
	const card = page.getByRole('list', { name: 'My courses' }).getByRole('listitem')
	await expect(card.locator('progress')).toHaveAttribute('aria-hidden', 'true')
	await expect(card.getByRole('progressbar')).toHaveCount(0)
	await expect(card.getByText('60% · 3 of 5 entries complete', { exact: true })).toHaveCount(1)
	await expect(card).toContainText('60% · 3 of 5 entries complete')
	expect((await card.innerText()).match(/60%/g), 'the percentage is written once').toHaveLength(1)
	// Header links are touch targets of at least 44 px.
	for (const link of await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all())
		expect((await link.boundingBox())!.height, 'a header link is at least 44 px tall').toBeGreaterThanOrEqual(44)
	await fitsThePhone(page, 'dashboard')

	// Sign out, acknowledged.
	await page.getByRole('link', { name: 'Sign out' }).click()
	await expect(page.getByRole('heading', { name: 'Sign out?' })).toBeVisible()
	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page).toHaveURL(at(ACME, '/?notice=signed-out'))
	await expect(page.getByText('You have been signed out.')).toBeVisible()
})

test('a learner meets the per-quiz reveal rules: a quiz that never shows its answer, one that always does', async ({
	page,
}, info) => {
	// Globex's onboarding course has one quiz of each rule.
	const email = `reveal-${info.project.name}-${info.workerIndex}-${Date.now()}@globex.test`
	const db = e2eDatabase()
	try {
		const globex = (await findTenantBySlug(db, 'globex'))!
		const user = await createUser(db, {
			tenant_id: globex.id,
			email,
			name: 'Rita Reveal',
			role: 'student',
			password_hash: await hashPassword(DEMO_PASSWORD),
			email_verified_at: new Date(),
		})
		await putEnrollment(db, { tenantId: globex.id, userId: user.id }, 'globex-onboarding', 'active')
	} finally {
		await db.close()
	}
	const course = '/learn/course/globex-onboarding'
	await signInAs(page, GLOBEX, email, `${course}/entry/welcome-to-globex`)
	await page.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(page.getByRole('heading', { name: 'Tools check', level: 1 })).toBeVisible()

	// revealAnswers "never": no answer after a failed attempt, nor after the last one; the learner is told so.
	await page.getByLabel('Email', { exact: true }).check()
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await expect(page.getByText('Attempt 1: 0% · 0 of 1 correct · Not passed')).toBeVisible()
	await expect(page.getByText('This quiz does not show the correct answers.')).toBeVisible()
	await expect(page.getByText(/Correct answer:/)).toHaveCount(0)
	await expect(page.getByText('Quick questions go to the team chat.')).toHaveCount(0)
	await page.getByRole('button', { name: /Submit answers \(1 attempt left\)/ }).click()
	await expect(page.getByText('You have used all 2 attempts. This quiz is now review-only.')).toBeVisible()
	await expect(page.getByRole('list', { name: 'Your attempts' }).locator(':scope > li')).toHaveCount(2)
	await expect(page.getByText('This quiz does not show the correct answers.')).toHaveCount(2)
	await expect(page.getByText(/Correct answer:/)).toHaveCount(0)
	await expect(page.getByText('Quick questions go to the team chat.')).toHaveCount(0)
	await fitsThePhone(page, 'review-only quiz that never reveals')

	// revealAnswers "always": the answer and its explanation right after a failed attempt, attempts still left.
	await page.goto(at(GLOBEX, `${course}/entry/habits-check`))
	await page.getByLabel('False', { exact: true }).check()
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await expect(page.getByText('Attempt 1: 0% · 0 of 1 correct · Not passed')).toBeVisible()
	await expect(page.getByText('2 attempts left.')).toBeVisible()
	const feedback = page.getByRole('status').filter({ hasText: 'Attempt 1:' })
	await expect(feedback).toContainText('Your answer: False. Correct answer: True.')
	await expect(feedback.getByText('Every team meets at 9:30 for ten minutes.')).toBeVisible()
	await expect(page.getByText('The correct answers are shown once you pass or have used every attempt.')).toHaveCount(0)
	await expect(page.getByText('This quiz does not show the correct answers.')).toHaveCount(0)
	await fitsThePhone(page, 'quiz that always reveals')
})

test('a tenant admin: users on a phone, enroll and cancel, invitations, role with a course, readable records', async ({
	page,
	browser,
}, info) => {
	// Accounts of their own: the admin's mutations are rate-limited per admin.
	const admin = await acmeAccount(info, 'walk-admin', { role: 'tenant_admin' })
	const learner = await acmeAccount(info, 'walk-member')
	const learnerName = 'E2E walk-member'
	const uploaded = await acmeAccount(info, 'walk-uploaded')
	const invitee = uniqueEmail(info, 'walk-invitee')

	await signInAs(page, ACME, admin, '/admin')
	await page.getByRole('link', { name: 'Users' }).first().click()
	await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible()
	await fitsThePhone(page, 'users list')

	// Enroll a learner by email and read the report.
	await page.goto(at(ACME, '/admin/courses/intro-to-web/enroll'))
	await page.getByLabel('Email addresses').fill(learner)
	await page.getByRole('button', { name: 'Enroll', exact: true }).click()
	const report = page.getByRole('region', { name: 'Enrollment report' })
	await expect(report.getByRole('row', { name: learner })).toContainText('Enrolled')
	await expect(page.getByText('Enrolled: 1')).toBeVisible()
	await fitsThePhone(page, 'enrollment report')
	await page.getByLabel('CSV file').setInputFiles({
		name: 'learners.csv',
		mimeType: 'text/csv',
		buffer: Buffer.from(`name,email\r\nUp Loaded,${uploaded}\r\nAgain,${learner}\r\n`),
	})
	await page.getByRole('button', { name: 'Upload and enroll' }).click()
	await expect(report.getByRole('row', { name: uploaded })).toContainText('Enrolled')
	await expect(report.getByRole('row', { name: learner })).toContainText('Already enrolled (active)')
	await fitsThePhone(page, 'report of the CSV file')

	// The learner, in a browser of their own, works through to the quiz and fails it once.
	const learnerSide = await browser.newContext({
		javaScriptEnabled: info.project.name === 'js',
		viewport: { width: 360, height: 780 },
	})
	const learnerPage = await learnerSide.newPage()
	await signInAs(learnerPage, ACME, learner, `${COURSE}/entry/what-is-http`)
	await learnerPage.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(learnerPage.getByRole('heading', { name: 'HTML forms', level: 1 })).toBeVisible()
	await learnerPage.getByRole('button', { name: 'Mark as complete' }).click()
	await expect(learnerPage.getByRole('heading', { name: 'Basics quiz', level: 1 })).toBeVisible()
	await learnerPage.getByLabel('POST', { exact: true }).check()
	await learnerPage.getByLabel('True', { exact: true }).check()
	await learnerPage.getByLabel('Your answer').fill('div')
	await learnerPage.getByRole('button', { name: /Submit answers/ }).click()
	await expect(learnerPage.getByText('Attempt 1: 67% · 2 of 3 correct · Not passed')).toBeVisible()

	// Cancel the enrollment: asked first, cancelling the question keeps it.
	await report.getByRole('link', { name: learner }).click()
	await expect(page.getByRole('heading', { name: learnerName, level: 1 })).toBeVisible()
	const enrollments = page.getByRole('region', { name: 'Enrollments' })
	const row = enrollments.getByRole('row', { name: /Introduction to the Web/ })
	await expect(row).toContainText('active')
	await expect(row).toContainText('2 of 5 entries (40%)')
	// Their recent quiz results: the quiz by its title, the attempt, the score and whether it passed.
	const results = page.getByRole('region', { name: 'Recent quiz results' })
	const result = results.getByRole('row', { name: /Basics quiz \(attempt 1\)/ })
	await expect(result).toContainText('Introduction to the Web')
	await expect(result.getByRole('cell').nth(2)).toHaveText('67%')
	await expect(result.getByRole('cell').nth(3)).toHaveText('No')
	await fitsThePhone(page, 'user page')
	const cancel = page.getByRole('button', { name: 'Cancel enrollment in Introduction to the Web' })
	await cancel.click()
	await expect(page.getByRole('alert')).toContainText(
		`Cancel the enrollment of ${learnerName} in Introduction to the Web?`,
	)
	await page.getByRole('alert').getByRole('link', { name: 'Keep enrollment' }).click()
	// Cancelling is a navigation with its loaders: on two cores shared by both projects it has taken over 5 s.
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(row).toContainText('active')
	await cancel.click()
	await page.getByRole('alert').getByRole('button', { name: 'Cancel enrollment' }).click()
	await expect(page.getByText('The enrollment was cancelled.')).toBeVisible()
	await expect(row).toContainText('cancelled')

	// Destructive actions ask first: deactivating, asked and cancelled, changes nothing.
	await page.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByRole('alert')).toContainText(`Deactivate ${learnerName}?`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(page.getByRole('button', { name: 'Deactivate' })).toBeVisible()
	await page.getByRole('button', { name: 'Sign out everywhere' }).click()
	await expect(page.getByRole('alert')).toContainText(`Sign ${learnerName} out on every device?`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })

	// Course admin comes with a course: asked which one.
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByLabel('Course (for a course admin)')).toHaveAccessibleDescription(
		'Choose the course they will administer',
	)
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByLabel('Course (for a course admin)').selectOption({ label: 'Introduction to the Web' })
	await page.getByRole('button', { name: 'Change role' }).click()
	// A higher role asks first too (issue 40).
	await expect(page.getByRole('alert')).toContainText('from student to course admin?')
	await page.getByRole('alert').getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByText('The role was changed.')).toBeVisible()
	await expect(page.locator('dl.facts')).toContainText('course admin')
	await expect(page.locator('dl.facts')).toContainText('Introduction to the Web')
	await expect(page.getByText('Choose the course they will administer')).toHaveCount(0)
	const userPage = page.url()

	// The course's admins page lists them; revoking asks first, and cancelling keeps them.
	await page.goto(at(ACME, '/admin/courses/intro-to-web/admins'))
	const assigned = page.getByRole('listitem').filter({ hasText: learner })
	await expect(assigned).toHaveCount(1)
	await fitsThePhone(page, 'course admins')
	await assigned.getByRole('button', { name: `Revoke ${learnerName}` }).click()
	await expect(page.getByRole('alert')).toContainText(
		`Stop ${learnerName} administering this course? They lose access to its dashboard at once.`,
	)
	await fitsThePhone(page, 'revoke confirmation')
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(assigned).toHaveCount(1)
	await assigned.getByRole('button', { name: `Revoke ${learnerName}` }).click()
	await page
		.getByRole('alert')
		.getByRole('button', { name: `Revoke ${learnerName}` })
		.click()
	await expect(page.getByText('Revoked.')).toBeVisible()
	await expect(assigned).toHaveCount(0)
	await page.goto(userPage)
	await expect(page.locator('dl.facts')).toContainText('No course yet')

	// Back down to student is a lower role: asked first, and cancelling keeps course admin.
	await page.getByLabel('Role').selectOption('student')
	await page.getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByRole('alert')).toContainText(`Change ${learnerName} from`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(page.locator('dl.facts')).toContainText('course admin')
	// Asked again and confirmed: the role is student.
	await page.getByLabel('Role').selectOption('student')
	await page.getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByRole('alert')).toContainText(
		`Change ${learnerName} from course admin to student? They lose what the course admin role may do, and are signed out.`,
	)
	await fitsThePhone(page, 'lower role confirmation')
	await page.getByRole('alert').getByRole('button', { name: 'Change role' }).click()
	await expect(page.getByText('The role was changed. Their sessions were signed out.')).toBeVisible()
	const facts = page.locator('dl.facts')
	await expect(facts.locator('dt', { hasText: 'Role' }).locator('xpath=following-sibling::dd[1]')).toHaveText('student')

	// Signing them out everywhere, confirmed: the learner's browser is signed out.
	await signInAs(learnerPage, ACME, learner, '/learn/dashboard')
	await page.getByRole('button', { name: 'Sign out everywhere' }).click()
	await expect(page.getByRole('alert')).toContainText(`Sign ${learnerName} out on every device?`)
	await fitsThePhone(page, 'sign-out confirmation')
	await page.getByRole('alert').getByRole('button', { name: 'Sign out everywhere' }).click()
	await expect(page.getByText('Every session of this user was signed out.')).toBeVisible()
	await learnerPage.goto(at(ACME, '/learn/dashboard'))
	await expect(learnerPage).toHaveURL(/\/learn\/sign-in\?callbackUrl=%2Flearn%2Fdashboard/)

	// Deactivating, confirmed: deactivated, and reactivated.
	await page.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByRole('alert')).toContainText(`Deactivate ${learnerName}?`)
	await fitsThePhone(page, 'deactivation confirmation')
	await page.getByRole('alert').getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByText('The account was deactivated and signed out everywhere.')).toBeVisible()
	await expect(facts.locator('dt', { hasText: 'Status' }).locator('xpath=following-sibling::dd[1]')).toHaveText(
		'Deactivated',
	)
	await page.getByRole('button', { name: 'Reactivate' }).click()
	await expect(page.getByText('The account was reactivated. They can sign in again.')).toBeVisible()
	await expect(facts.locator('dt', { hasText: 'Status' }).locator('xpath=following-sibling::dd[1]')).toHaveText(
		'Active',
	)
	await learnerSide.close()

	// Invitations: inviting a member says so honestly; a new one is pending, resent and revoked (asked first).
	await page.goto(at(ACME, '/admin/users/invite'))
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText('Enter the email address of the person you are inviting')).toBeVisible()
	await page.getByLabel('Email').fill(learner)
	await page.getByLabel('Role').selectOption('student')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	// Inviting a learner as a learner gives nothing: no invitation, no mail, and the page says so (decision 0040).
	await expect(page.getByText('This address already has an account here with this role or a higher one')).toBeVisible()
	// The answer replaces the empty try's error, with JavaScript as without.
	await expect(page.getByText('Enter the email address of the person you are inviting')).toHaveCount(0)
	await page.getByLabel('Email').fill(invitee)
	await page.getByLabel('Role').selectOption('course_admin')
	await page.getByLabel('Course', { exact: true }).selectOption('intro-to-web')
	await page.getByRole('button', { name: 'Send invitation' }).click()
	await expect(page.getByText(`Invitation sent to ${invitee}`)).toBeVisible()
	// The invitee's page names the course by its title.
	const invitation = await browser.newContext({
		javaScriptEnabled: info.project.name === 'js',
		viewport: { width: 360, height: 780 },
	})
	const invited = await invitation.newPage()
	await invited.goto(at(ACME, await mailedLink(invitee, '/invite/')))
	await expect(invited.getByText('Join as course admin of Introduction to the Web')).toBeVisible()
	await invitation.close()
	await page.getByRole('link', { name: 'Pending invitations' }).click()
	await expect(page.getByRole('heading', { name: 'Pending invitations', level: 1 })).toBeVisible()
	const pending = page.getByRole('row').filter({ has: page.getByRole('cell', { name: invitee }) })
	await expect(pending).toContainText(admin)
	await fitsThePhone(page, 'pending invitations')
	await pending.getByRole('button', { name: `Resend to ${invitee}` }).click()
	await expect(page.getByText(`A new invitation is on its way to ${invitee}`)).toBeVisible()
	await pending.getByRole('button', { name: `Revoke the invitation to ${invitee}` }).click()
	await expect(page.getByRole('alert')).toContainText(`Revoke the invitation to ${invitee}?`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(pending).toHaveCount(1)
	await pending.getByRole('button', { name: `Revoke the invitation to ${invitee}` }).click()
	await page.getByRole('alert').getByRole('button', { name: 'Revoke invitation' }).click()
	await expect(page.getByText(`The invitation to ${invitee} was revoked`)).toBeVisible()
	await expect(pending).toHaveCount(0)

	// Readable records: the audit log, filtered by the admin's email, names who did what to whom.
	await page.goto(at(ACME, `/admin/audit?actor=${encodeURIComponent(admin)}`))
	await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible()
	const audit = page.getByRole('row').filter({ hasText: 'enrollment.cancelled' })
	await expect(audit).toHaveCount(1)
	await expect(audit).toContainText(admin)
	await expect(audit).toContainText(learner)
	await expect(page.getByRole('row').filter({ hasText: 'user.role_changed' })).toHaveCount(2)
	for (const changed of await page.getByRole('row').filter({ hasText: 'user.role_changed' }).all())
		await expect(changed).toContainText(learner)
	await expect(page.getByRole('row').filter({ hasText: 'user.deactivated' })).toContainText(learner)
	await expect(page.getByRole('row').filter({ hasText: 'user.signed_out' })).toContainText(learner)
	await expect(page.getByRole('row').filter({ hasText: 'invitation.' }).first()).toContainText(invitee)
	expect(await page.locator('main').innerText()).not.toMatch(UUID)
	expect(await page.locator('main').innerText()).not.toContain('{"')
	await fitsThePhone(page, 'audit log')

	// The admin home's recent activity, by name and email.
	await page.goto(at(ACME, '/admin'))
	await expect(page.getByRole('heading', { name: 'Recent activity', level: 2 })).toBeVisible()
	// The newest rows of the tenant (this walk's among them, beside other tests' running at the same
	// time): names with emails.
	const recent = page.locator('ul.activity')
	await expect(
		recent
			.getByRole('listitem')
			.filter({ hasText: /E2E walk-admin <walk-admin-[^>]+@acme\.test>/ })
			.first(),
	).toBeVisible()
	expect(await recent.innerText()).not.toMatch(UUID)
	await fitsThePhone(page, 'admin home')
})

test('a course admin: navigation leads only to pages that open; preview an entry and try its quiz, nothing stored', async ({
	page,
}) => {
	await signInAs(page, ACME, 'author@acme.test', '/admin/courses/intro-to-web/dashboard')
	await expect(page.getByRole('heading', { name: 'Introduction to the Web' })).toBeVisible()
	await fitsThePhone(page, 'course dashboard')

	// Every link the header and the dashboard offer opens: no 404.
	const hrefs = new Set<string>()
	for (const link of await page.locator('header a[href^="/"], main a[href^="/"]').all())
		hrefs.add((await link.getAttribute('href'))!)
	expect(hrefs.size).toBeGreaterThan(3)
	for (const href of hrefs) await opens(page, href)
	await page.goto(at(ACME, '/admin/courses/intro-to-web/dashboard'))
	// The header's Admin link leads to the course they administer.
	const adminLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })
	await expect(adminLink).toBeVisible()
	await expect(adminLink).toHaveAttribute('href', '/admin/courses/intro-to-web/dashboard')
	await page.goto(at(ACME, '/learn/dashboard'))
	await adminLink.click()
	await expect(page).toHaveURL(at(ACME, '/admin/courses/intro-to-web/dashboard'))
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction to the Web')

	// The dashboard links to the preview of each entry.
	await page.getByRole('link', { name: 'What is HTTP?' }).first().click()
	await expect(page).toHaveURL(at(ACME, `${COURSE}/entry/what-is-http?preview=1`))
	await expect(page.getByText('Preview mode.')).toBeVisible()
	await fitsThePhone(page, 'preview of a lesson')
	// Completing is off in preview, and the button looks it.
	const off = page.getByRole('button', { name: 'Mark as complete' })
	await expect(off).toBeDisabled()
	await expect(off).toHaveCSS('cursor', 'not-allowed')
	await expect(off).toHaveCSS('border-top-style', 'dashed')
	const offLook = await looks(off)

	// Trying the quiz in preview: feedback, nothing stored.
	await page.goto(at(ACME, '/admin/courses/intro-to-web/dashboard'))
	await page.getByRole('link', { name: 'Basics quiz' }).first().click()
	await expect(page).toHaveURL(at(ACME, `${COURSE}/entry/basics-quiz?preview=1`))
	// The quiz's button is usable and looks it: not as the disabled one.
	const on = page.getByRole('button', { name: 'Check answers (nothing is saved)' })
	await expect(on).toBeEnabled()
	await expect(on).toHaveCSS('cursor', 'pointer')
	const onLook = await looks(on)
	expect(onLook.color, 'a disabled button’s text is not an enabled one’s').not.toBe(offLook.color)
	expect(onLook.background, 'a disabled button’s background is not an enabled one’s').not.toBe(offLook.background)
	expect(onLook.border).not.toBe('dashed')
	await page.getByRole('radio', { name: 'GET' }).check()
	await page.getByRole('radio', { name: 'True' }).check()
	await page.getByLabel('Your answer').fill('form')
	await on.click()
	const feedback = page.getByRole('status').filter({ hasText: 'Preview:' })
	await expect(feedback).toContainText('Preview: 67% · 2 of 3 correct · Not passed')
	await expect(feedback).toContainText('Nothing was saved')
	await expect(page.getByRole('radio', { name: 'GET' })).toBeChecked()
	// The form does not speak of a stored attempt to be submitted again.
	await expect(page.getByText('Your answers are filled in. Nothing was saved')).toBeVisible()
	await expect(page.getByText('Your previous answers are filled in')).toHaveCount(0)
	// A prompt that wraps on a phone stays inside its box, under the border, not on it.
	const prompt = page.getByRole('group', { name: /Which method should a form use/ })
	const [box, legend] = await Promise.all([prompt.boundingBox(), prompt.locator('legend').boundingBox()])
	expect(legend!.y, 'the legend starts below the fieldset’s top border').toBeGreaterThan(box!.y)
	await fitsThePhone(page, 'preview feedback')

	const db = e2eDatabase()
	try {
		const acme = (await findTenantBySlug(db, 'acme'))!
		const author = (await findUserByEmail(db, acme.id, 'author@acme.test'))!
		const scope = { tenantId: acme.id, userId: author.id }
		expect(await listAttempts(db, scope, 'intro-to-web', 'basics-quiz')).toHaveLength(0)
		expect(await listProgress(db, scope, 'intro-to-web')).toHaveLength(0)
	} finally {
		await db.close()
	}
})

test('the super admin: users across tenants with a tenant column and filter, tenants on a phone, suspend asks first', async ({
	page,
}, info) => {
	await signInAs(page, 'localhost', 'root@platform.test', '/admin/users')
	await expect(page.getByRole('columnheader', { name: 'Tenant' })).toBeVisible()
	await fitsThePhone(page, 'users across tenants')
	await page.locator('select[name="tenant"]').selectOption({ label: 'Acme Academy' })
	await page.getByRole('button', { name: 'Filter' }).click()
	await expect(page).toHaveURL(/[?&]tenant=acme/)
	const rows = page.locator('tbody tr')
	await expect(rows.first()).toContainText('Acme Academy')
	for (const row of await rows.all()) await expect(row).toContainText('Acme Academy')
	await fitsThePhone(page, 'users of one tenant')

	await page.goto(at('localhost', '/admin/tenants'))
	await fitsThePhone(page, 'tenants')
	const slug = `walk-${info.project.name}-${Date.now() % 100000}`
	const tenant = `Tenant ${slug}`
	await page.getByLabel('Slug (the subdomain)').fill(slug)
	await page.getByLabel('Name').fill(tenant)
	await page.getByLabel('Email of its first administrator (they get an invitation)').fill(`head-${slug}@example.test`)
	await page.getByRole('button', { name: 'Create tenant' }).click()
	await expect(page.getByText('The tenant was created.')).toBeVisible()
	await fitsThePhone(page, 'tenants with a new one')

	await page.getByRole('button', { name: `Suspend ${tenant}` }).click()
	await expect(page.getByRole('alert')).toContainText(`Suspend ${tenant}?`)
	await page.getByRole('alert').getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 15_000 })
	await expect(page.getByText('The tenant was suspended')).toHaveCount(0)
	await expect(page.getByRole('button', { name: `Suspend ${tenant}` })).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: tenant })).toContainText(/active/i)
	// Still serving: a suspended tenant answers 503.
	const live = await page.goto(at(`${slug}.localhost`, '/learn'))
	expect(live?.status(), 'the tenant is still active').not.toBe(503)

	// Archiving asks first too; confirmed, the tenant is archived and its host no longer answers.
	await page.goto(at('localhost', '/admin/tenants'))
	await page.getByRole('button', { name: `Archive ${tenant}` }).click()
	await expect(page.getByRole('alert')).toContainText(
		`Archive ${tenant}? Its hosts stop answering (404) and all its users are signed out.`,
	)
	await fitsThePhone(page, 'archive confirmation')
	await page
		.getByRole('alert')
		.getByRole('button', { name: `Archive ${tenant}` })
		.click()
	await expect(page.getByText('The tenant was archived: its hosts now answer 404.')).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: tenant })).toContainText('archived')
	await expect(page.getByRole('button', { name: `Archive ${tenant}` })).toHaveCount(0)
	const gone = await page.goto(at(`${slug}.localhost`, '/learn'))
	expect(gone?.status(), 'an archived tenant’s host answers 404').toBe(404)
})

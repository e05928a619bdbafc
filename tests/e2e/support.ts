import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, type TestInfo } from '@playwright/test'
import { openDatabase } from '#db/client.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { isGradedAssignment, passAssignment } from '#tests/support/results.ts'
import type { Locale } from '#app/i18n/locales.ts'
import type { Role } from '#db/schema/values.ts'
import { findUserByEmail } from '#db/users.ts'
import type { RequestContext } from '#app/context.ts'
import { commitUserSession } from '#app/accounts/session.server.ts'
import { testEnv } from '#tests/support/env.ts'
import { findTenantBySlug } from '#tests/support/repository.ts'
import { addPerson } from '#tests/support/people.ts'

/**
 * The CMS's preview link maker, as Strapi runs it (decision 0100). Its package is CommonJS, whose
 * exports Playwright's loader gives an ES import no names for: required instead.
 */
export const { previewToken } = createRequire(import.meta.url)(
	'../../cms/strapi/src/utils/preview.ts',
) as typeof import('../../cms/strapi/src/utils/preview.ts')

export const PORT = Number(process.env.E2E_PORT ?? 3210)
export const DEMO_PASSWORD = 'demo-password-2026'

/** An absolute URL on one of the test hosts. */
export const at = (host: string, path = '/') => `http://${host}:${PORT}${path}`

/** An address unique to this test and project, so the js and no-js runs never share an account. */
export const uniqueEmail = (info: TestInfo, name: string) =>
	`${name}-${info.project.name}-${info.workerIndex}-${Date.now()}@acme.test`

/** Every message delivered to `to` so far, oldest first (the e2e server's loopback SMTP sink writes them). */
export function mailsTo(to: string): { to: string; subject: string; text: string }[] {
	const file = resolve('.tmp/e2e/mail.jsonl')
	if (!existsSync(file)) return []
	return readFileSync(file, 'utf8')
		.trim()
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l))
		.filter((m) => m.to === to)
}

/** The path of the newest link under `prefix` in mail delivered to `to`. */
export async function mailedLink(to: string, prefix: string, timeoutMs = 15_000) {
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		const mine = mailsTo(to)
		const match = mine.length ? new RegExp(`https?://[^\\s]+(${prefix}[^\\s]+)`).exec(mine[mine.length - 1].text) : null
		if (match) return match[1]
		await new Promise((r) => setTimeout(r, 50))
	}
	throw new Error(`no mail with ${prefix} to ${to}`)
}

/** The e2e server's database, for setting up what has no screen yet. */
export function e2eDatabase() {
	return openDatabase(`file:${resolve('.tmp/e2e/e2e.sqlite')}`)
}

/**
 * A fresh verified Acme account of this test and project (password DEMO_PASSWORD), enrolled in
 * `enrolledIn` if given, with the entries of `completed` complete there. Sign-ins are limited per
 * address, so suites that sign in often use their own.
 */
export async function acmeAccount(
	info: TestInfo,
	name: string,
	options: { role?: Role; enrolledIn?: string; completed?: string[]; locale?: Locale } = {},
) {
	const email = uniqueEmail(info, name)
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const user = await addPerson(db, {
		tenant_id: acme.id,
		email,
		name: `E2E ${name}`,
		role: options.role ?? 'student',
		locale: options.locale,
	})
	const scope = { tenantId: acme.id, userId: user.id }
	if (options.enrolledIn) {
		await putEnrollment(db, scope, options.enrolledIn, 'active')
		for (const entry of options.completed ?? []) {
			await markEntryCompleteRow(db, scope, options.enrolledIn, entry)
			// A graded assignment counts as passed only with a passing grade (the course result, decision 0037).
			if (isGradedAssignment(options.enrolledIn, entry)) await passAssignment(db, scope, options.enrolledIn, entry)
		}
	}
	await db.close()
	return email
}

export async function signIn(page: Page, host: string, email: string, password = DEMO_PASSWORD) {
	await page.goto(at(host, '/learn/sign-in'))
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

/**
 * Signs the browser in without the form, then opens `path`: a stored session made as the sign-in
 * action makes one, its cookie set on the host. For tests about what comes after signing in; the
 * sign-in form itself is walked by accounts.spec.ts and locales.spec.ts. Fails when `path` sends
 * the browser elsewhere (the session was not accepted).
 */
export async function signInAs(page: Page, host: string, email: string, path: string) {
	const db = e2eDatabase()
	try {
		const slug = host === 'localhost' ? null : host.split('.')[0]
		const tenant = slug ? await findTenantBySlug(db, slug) : null
		const user = await findUserByEmail(db, tenant?.id ?? null, email)
		if (!user) throw new Error(`no account ${email} on ${host}`)
		const ctx = {
			env: testEnv({ AUTH_URL: `http://localhost:${PORT}` }),
			db,
			origin: `http://${host}:${PORT}`,
			tenant,
		} as unknown as RequestContext
		const { cookie } = await commitUserSession(ctx, user)
		const [name, value] = cookie.split(';')[0].split(/=(.*)/s)
		await page.context().addCookies([{ name, value, url: at(host, '/'), httpOnly: true, sameSite: 'Lax' }])
	} finally {
		await db.close()
	}
	await page.goto(at(host, path))
	if (new URL(page.url()).pathname !== path) throw new Error(`signed in as ${email}, ${path} went to ${page.url()}`)
}

/** Creates an account through the sign-up form and opens its verification link (ends signed in). */
export async function signUpAndVerify(page: Page, host: string, name: string, email: string) {
	await page.goto(at(host, '/learn/sign-up'))
	await page.getByLabel('Name').fill(name)
	await page.getByLabel('Email').fill(email)
	await page.getByLabel('Password').fill('a-good-long-secret')
	await page.getByRole('button', { name: 'Create account' }).click()
	await page.getByText('Check your email').waitFor()
	await page.goto(at(host, await mailedLink(email, '/learn/verify/')))
	// The link asks; its button confirms and signs in (decision 0032).
	await page.getByRole('button', { name: 'Confirm and sign in' }).click()
	await page.waitForURL(/notice=email-confirmed/)
}

/** Every entry of intro-to-web but its quiz: an account enrolled with these done passes the course with the quiz. */
export const BEFORE_QUIZ = ['what-is-http', 'html-forms', 'progressive-enhancement', 'build-a-form']

/**
 * Passes intro-to-web's quiz in the signed-in page, which passes the course and issues the
 * certificate (decision 0038); returns the path of the learner's certificate page.
 */
export async function passIntroQuiz(page: Page) {
	await page.goto(at('acme.localhost', '/learn/course/intro-to-web/entry/basics-quiz'))
	await page.getByLabel('POST', { exact: true }).check()
	await page.getByLabel('True', { exact: true }).check()
	await page.getByLabel('Your answer').fill('form')
	await page.getByRole('button', { name: /Submit answers/ }).click()
	await page.getByText(/Attempt 1:/).waitFor()
	await page.goto(at('acme.localhost', '/learn/dashboard'))
	const href = await page.locator('a[href^="/learn/certificates/"]').first().getAttribute('href')
	if (!href) throw new Error('no certificate on the dashboard after passing the course')
	return href
}

/** WCAG 2.2 AA rules of axe-core, as a11y.spec.ts runs them; only where JavaScript runs in the page. */
export async function expectAccessible(page: Page, info: TestInfo, label: string) {
	if (info.project.name !== 'js') return
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
		.analyze()
	expect(
		results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
		label,
	).toEqual([])
}

/** The page never scrolls sideways on the phone: wide tables scroll inside their region. */
export async function fitsThePhone(page: Page, label: string) {
	const { width, screen } = await page.evaluate(() => ({
		width: document.documentElement.scrollWidth,
		screen: window.innerWidth,
	}))
	expect(width, label).toBeLessThanOrEqual(screen)
}

import { expect, test } from '@playwright/test'
import de from '#app/i18n/catalogues/de.ts'
import en from '#app/i18n/catalogues/en.ts'
import es from '#app/i18n/catalogues/es.ts'
import fr from '#app/i18n/catalogues/fr.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { findUserByEmail } from '#db/users.ts'
import { acmeAccount, at, DEMO_PASSWORD, e2eDatabase, signIn, signInAs, uniqueEmail } from './support.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

// Runs in the js and the no-js projects: the switcher is a plain form either way.
test('a visitor switches the interface to Spanish and back with the footer switcher', async ({ page }) => {
	await page.goto(at(ACME, '/learn/course/intro-to-web'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'en')
	await page.getByLabel(en.common.switcher.label).selectOption('es')
	await page.getByRole('button', { name: en.common.switcher.submit }).click()

	await expect(page).toHaveURL(at(ACME, '/es/learn/course/intro-to-web'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introducción a la Web')
	await expect(
		page.getByRole('navigation', { name: es.common.nav.label }).getByRole('link', { name: es.common.nav.courses }),
	).toHaveAttribute('href', '/es/learn')

	// The cookie carries the choice to unprefixed addresses too.
	await page.goto(at(ACME, '/learn'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')

	await page.getByLabel(es.common.switcher.label).selectOption('en')
	await page.getByRole('button', { name: es.common.switcher.submit }).click()
	await expect(page).toHaveURL(at(ACME, '/learn'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'en')
	await expect(page.getByRole('link', { name: en.common.nav.courses })).toBeVisible()
})

test('a learner saves German on the account page and the dashboard follows', async ({ page }, info) => {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const email = uniqueEmail(info, 'polyglot')
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Polly Glot',
		role: 'student',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await signIn(page, ACME, email)
	await expect(page).toHaveURL(at(ACME, '/learn/dashboard'))

	await page.goto(at(ACME, '/learn/account'))
	await page.getByLabel(en.accounts.account.languageLabel).selectOption('de')
	await page.getByRole('button', { name: en.accounts.account.saveLanguage }).click()
	await expect(page).toHaveURL(at(ACME, '/de/learn/account?notice=locale-changed'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'de')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.accounts.account.title)
	expect((await findUserByEmail(db, acme.id, email))?.locale).toBe('de')

	await page.getByRole('link', { name: de.common.nav.dashboard }).click()
	await expect(page).toHaveURL(at(ACME, '/de/learn/dashboard'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'de')
	await db.close()
})

test('signing in lands in the learner’s own locale (with JavaScript, its catalogue loads during the navigation)', async ({
	page,
}, info) => {
	const db = e2eDatabase()
	const acme = (await findTenantBySlug(db, 'acme'))!
	const email = uniqueEmail(info, 'francophone')
	await createUser(db, {
		tenant_id: acme.id,
		email,
		name: 'Fanny Franco',
		role: 'student',
		locale: 'fr',
		password_hash: await hashPassword(DEMO_PASSWORD),
		email_verified_at: new Date(),
	})
	await db.close()
	await signIn(page, ACME, email)
	await expect(page).toHaveURL(at(ACME, '/fr/learn/dashboard'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
	await expect(
		page.getByRole('navigation', { name: fr.common.nav.label }).getByRole('link', { name: fr.common.nav.account }),
	).toHaveAttribute('href', '/fr/learn/account')
	await expect(page.getByRole('link', { name: en.common.nav.account })).toHaveCount(0)
})

test('a Spanish learner moves between pages under /es; staff do it client-side with JavaScript', async ({
	page,
}, info) => {
	const email = await acmeAccount(info, 'hispanohablante', { enrolledIn: 'intro-to-web', locale: 'es' })
	await signIn(page, ACME, email)
	await expect(page).toHaveURL(at(ACME, '/es/learn/dashboard'))
	await page.goto(at(ACME, '/es/learn/course/intro-to-web'))
	await page.getByRole('link', { name: '¿Qué es HTTP?' }).click()
	await expect(page).toHaveURL(at(ACME, '/es/learn/course/intro-to-web/entry/what-is-http'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await page
		.getByRole('navigation', { name: es.common.nav.label })
		.getByRole('link', { name: es.common.nav.dashboard })
		.click()
	await expect(page).toHaveURL(at(ACME, '/es/learn/dashboard'))
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

	// Staff pages hydrate (learner pages do not, decision 0106): their links stay under /es in place.
	const admin = await acmeAccount(info, 'administradora', { role: 'tenant_admin', locale: 'es' })
	await signInAs(page, ACME, admin, '/es/admin')
	// A mark on the window survives only navigations that load no new document.
	await page.evaluate(() => ((window as any).sameDocument = true))
	await page.getByRole('link', { name: es.admin.home.nav.users, exact: true }).click()
	await expect(page).toHaveURL(at(ACME, '/es/admin/users'))
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	const sameDocument = await page.evaluate(() => (window as any).sameDocument === true)
	expect(sameDocument).toBe(info.project.name === 'js')
})

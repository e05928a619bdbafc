// Issue 52, "Admin": seat counts and a limit per paid course, with a clear refusal when full
// (decision 0065). A tenant admin sets the limit on the course's settings page; the seats in use
// (enrollments not cancelled) show there and on the dashboard; the admin's enroll page, the invite
// page's lists and the acceptance of an invitation each refuse when no seat is free, and two
// requests for the last seat never both get it (PostgreSQL: an advisory lock; SQLite: one writer).
import { load } from 'cheerio'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { assignCourseAdmin, findEnrollment } from '#db/learning.ts'
import { seatsUsed } from '#db/seats.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { linkIn } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const PAID = 'advanced-css'
const SETTINGS = `/admin/courses/${PAID}/settings`
const ENROLL = `/admin/courses/${PAID}/enroll`
const PASSWORD = 'Seats-Passphrase-42'

describe.each(DIALECTS)('seats of a paid course on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())

	let n = 0
	const newUser = (role: 'student' | 'course_admin' | 'tenant_admin') =>
		createUser(stack.db, {
			tenant_id: acme.id,
			email: `seats-${role}-${++n}@acme.test`,
			name: `Seat ${n}`,
			role,
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
	const freshAdmin = async () => stack.signIn((await newUser('tenant_admin')).email, ACME)
	const used = () => seatsUsed(stack.db, acme.id, PAID)
	/** Gives the course `free` free seats beside those in use, through the settings page. */
	async function setFree(free: number) {
		const admin = await freshAdmin()
		const res = await admin.post(SETTINGS, { seats: String((await used()) + free) })
		expect(res.status).toBe(302)
	}
	const outcomes = (html: string) => {
		const $ = load(html)
		return $('tr[data-outcome]')
			.toArray()
			.map((tr) => $(tr).attr('data-outcome'))
	}
	const fieldError = (html: string) => load(html)('.field-error').text()
	const openInvitation = async (email: string) => {
		const i = stack.db.t.invitations
		const [row] = await stack.db.orm
			.select()
			.from(i)
			.where(and(eq(i.tenant_id, acme.id), eq(i.email, email), isNull(i.accepted_at)))
		return row ?? null
	}

	it('is set by a tenant admin, within bounds, on a paid course only; the seats in use show on settings and dashboard', async () => {
		const admin = await freshAdmin()
		const page = load((await admin.get(SETTINGS)).text)
		expect(page('input[name="seats"]')).toHaveLength(1)
		expect(page('input[name="seats"]').attr('value') ?? '').toBe('')
		expect(page('main').text()).toContain(`Seats in use: ${await used()}.`)
		for (const bad of ['-1', '1.5', 'ten', '1000001', '9'.repeat(20)]) {
			const res = await admin.post(SETTINGS, { seats: bad })
			expect(res.status, bad).toBe(400)
			expect(fieldError(res.text), bad).toContain('Enter a whole number of seats')
		}
		const limit = (await used()) + 5
		expect((await admin.post(SETTINGS, { seats: String(limit), sequential: 'on' })).status).toBe(302)
		expect(load((await admin.get(SETTINGS)).text)('input[name="seats"]').attr('value')).toBe(String(limit))
		const dashboard = load((await admin.get(`/admin/courses/${PAID}/dashboard`)).text)
		expect(dashboard('[data-seats-used]').text()).toBe(`Seats in use: ${await used()} of ${limit}.`)

		// A course admin sees the count, cannot set the limit; saving their flags keeps it.
		const courseAdmin = await newUser('course_admin')
		await assignCourseAdmin(stack.db, { tenantId: acme.id, userId: courseAdmin.id }, PAID, null)
		const staff = await stack.signIn(courseAdmin.email, ACME)
		const theirs = load((await staff.get(SETTINGS)).text)
		expect(theirs('input[name="seats"]')).toHaveLength(0)
		expect(theirs('[data-seats-used]').text()).toBe(`Seats in use: ${await used()} of ${limit}.`)
		const refused = await staff.post(SETTINGS, { seats: '1000' })
		expect(refused.status).toBe(403)
		expect(load(refused.text)('[role="alert"]').text()).toBe('Only a tenant admin sets the seats of a course.')
		expect((await staff.post(SETTINGS, {})).status).toBe(302)
		expect(load((await admin.get(SETTINGS)).text)('input[name="seats"]').attr('value')).toBe(String(limit))

		// A free course has no seats.
		const free = await admin.post('/admin/courses/intro-to-web/settings', { seats: '3' })
		expect(free.status).toBe(400)
		expect(load(free.text)('[role="alert"]').text()).toBe('Only a paid course has seats.')
		// Empty: no limit.
		expect((await admin.post(SETTINGS, { seats: '' })).status).toBe(302)
		expect(load((await admin.get(SETTINGS)).text)('input[name="seats"]').attr('value') ?? '').toBe('')
	})

	it('refuses on the enroll page and the invite page when full, and a cancelled enrollment frees its seat', async () => {
		const [a, b] = [await newUser('student'), await newUser('student')]
		await setFree(1)
		const admin = await freshAdmin()
		const res = await admin.post(ENROLL, { intent: 'emails', emails: `${a.email}\n${b.email}\nseat-new-1@acme.test` })
		expect(res.status).toBe(200)
		expect(outcomes(res.text)).toEqual(['enrolled', 'full', 'full'])
		expect(load(res.text)('tr[data-outcome="full"]').first().text()).toContain('No free seat in this course')
		expect(await findEnrollment(stack.db, { tenantId: acme.id, userId: b.id }, PAID)).toBeNull()
		expect(await openInvitation('seat-new-1@acme.test')).toBeNull()
		// Already enrolled takes no new seat.
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: a.email })).text)).toEqual([
			'alreadyEnrolled',
		])

		// The invite page: a row carrying the full course is not invited; one without a course is.
		const csv = ['email,course', `seat-new-2@acme.test,${PAID}`, 'seat-new-3@acme.test,'].join('\n')
		const listed = await admin.postMultipart('/admin/users/invite', { intent: 'csv' }, [
			{ field: 'file', name: 'seats.csv', type: 'text/csv', body: csv },
		])
		expect(outcomes(listed.text)).toEqual(['courseFull', 'invited'])
		expect(await openInvitation('seat-new-2@acme.test')).toBeNull()
		const one = await admin.post('/admin/users/invite', {
			email: 'seat-new-4@acme.test',
			role: 'student',
			course_slug: PAID,
		})
		expect(one.status).toBe(400)
		expect(fieldError(one.text)).toBe('The course has no free seat: not invited')

		// A cancellation frees the seat.
		const e = stack.db.t.enrollments
		await stack.db.orm
			.update(e)
			.set({ status: 'cancelled' })
			.where(and(eq(e.tenant_id, acme.id), eq(e.user_id, a.id), eq(e.course_slug, PAID)))
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: b.email })).text)).toEqual(['enrolled'])
		// And cancelled-then-enrolled again takes one.
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: a.email })).text)).toEqual(['full'])
	})

	it('refuses an acceptance when the course filled after the invitation went, keeping the invitation open', async () => {
		await setFree(1)
		const admin = await freshAdmin()
		const email = 'seat-late@acme.test'
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: email })).text)).toEqual(['invited'])
		const link = linkIn(await stack.mail.waitFor(email), '/invite/')
		// Someone else takes the last seat meanwhile.
		const other = await newUser('student')
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: other.email })).text)).toEqual(['enrolled'])

		const b = stack.browser(ACME)
		const res = await b.post(link, { name: 'Late Comer', password: PASSWORD })
		expect(res.status).toBe(409)
		expect(load(res.text)('[role="alert"]').text()).toContain('Advanced CSS has no free seat left')
		expect(await findUserByEmail(stack.db, acme.id, email)).toBeNull()
		expect(await openInvitation(email)).not.toBeNull()

		// A seat added: the same link works.
		await setFree(1)
		expect((await b.post(link, { name: 'Late Comer', password: PASSWORD })).status).toBe(302)
		const user = (await findUserByEmail(stack.db, acme.id, email))!
		expect((await findEnrollment(stack.db, { tenantId: acme.id, userId: user.id }, PAID))?.status).toBe('active')
	})

	it('gives the last seat to exactly one of many concurrent requests', async () => {
		// Admins enrolling different learners at once (each admin its own rate limit).
		await setFree(1)
		const before = await used()
		const learners = await Promise.all(Array.from({ length: 6 }, () => newUser('student')))
		const admins = await Promise.all(learners.map(() => freshAdmin()))
		const answers = await Promise.all(
			learners.map((l, i) => admins[i].post(ENROLL, { intent: 'emails', emails: l.email })),
		)
		const got = answers.map((r) => outcomes(r.text)[0])
		expect(got.filter((o) => o === 'enrolled')).toHaveLength(1)
		expect(got.filter((o) => o === 'full')).toHaveLength(5)
		expect(await used()).toBe(before + 1)

		// Invitees accepting at once, each invited while seats were free.
		const admin = await freshAdmin()
		await setFree(6)
		const emails = Array.from({ length: 6 }, (_, i) => `seat-race-${i}@acme.test`)
		expect(outcomes((await admin.post(ENROLL, { intent: 'emails', emails: emails.join('\n') })).text)).toEqual(
			Array(6).fill('invited'),
		)
		const links = await Promise.all(emails.map(async (e) => linkIn(await stack.mail.waitFor(e), '/invite/')))
		await setFree(1)
		const accepted = await Promise.all(
			links.map((link, i) => stack.browser(ACME).post(link, { name: `Racer ${i}`, password: PASSWORD })),
		)
		expect(accepted.map((r) => r.status).sort()).toEqual([302, 409, 409, 409, 409, 409])
		expect(await used()).toBe(before + 2)
	})
})

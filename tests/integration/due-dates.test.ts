import { load } from 'cheerio'
import { and, eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import nodeIcal, { type VEvent } from 'node-ical'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '#app/accounts/password.server.ts'
import { createCmsClient } from '#app/content/cms.server.ts'
import { dueInWindow, dueItemsFor, type DueReader } from '#app/learning/due-dates.server.ts'
import { listAttempts } from '#db/quiz-attempts.ts'
import { listSubmissions } from '#db/submissions.ts'
import { type Tenant } from '#db/tenants.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'

// Due dates, late hand-ins, extensions and the calendar feed (decision 0045), through the app as a
// browser and a calendar client use it, on each database.

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const ASSIGNMENT = `${COURSE}/entry/build-a-form`
const QUIZ = `${COURSE}/entry/basics-quiz`
const DAY = 24 * 60 * 60 * 1000

describe.each(DIALECTS)('due dates on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let passwordHash: string
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = (await findTenantBySlug(stack.db, 'acme'))!
		passwordHash = await hashPassword(DEMO_PASSWORD)
	})
	afterAll(() => stack?.close())
	/** What the reminders hand the due-date service: the database and a content client for Acme's site. */
	const reader = (): DueReader => ({
		db: stack.db,
		cms: createCmsClient({
			apiUrl: stack.cms.url,
			projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
			apiKey: TEST_SECRETS.CMS_API_UUID,
		}),
		site: 'acme',
	})

	let counter = 0
	/** A new Acme learner enrolled in intro-to-web `daysAgo` days ago, at the assignment. */
	async function learner(daysAgo: number) {
		const user = await createUser(stack.db, {
			tenant_id: acme.id,
			email: `due-${dialect}-${++counter}@acme.test`,
			name: `Due ${counter}`,
			role: 'student',
			password_hash: passwordHash,
			email_verified_at: new Date(),
		})
		const b = await stack.signIn(user.email)
		expect((await b.post(`${COURSE}/enroll`, {})).status).toBe(302)
		expect((await b.post(`${COURSE}/entry/progressive-enhancement`, { intent: 'complete' })).status).toBe(302)
		const e = stack.db.t.enrollments
		await stack.db.orm
			.update(e)
			.set({ enrolled_at: new Date(Date.now() - daysAgo * DAY) })
			.where(and(eq(e.tenant_id, acme.id), eq(e.user_id, user.id)))
		return { b, user, scope: { tenantId: acme.id, userId: user.id } }
	}
	const staffPage = (userId: string) => `/admin/courses/intro-to-web/learners/${userId}`

	it('dates relative entries from enrolled_at: overdue on the dashboard, course home and entry, in the chosen zone', async () => {
		const { b, user } = await learner(20)
		const items = await dueItemsFor(reader(), acme.id, user.id)
		const bySlug = new Map(items.map((i) => [i.entrySlug, i]))
		expect([...bySlug.keys()].sort()).toEqual(['basics-quiz', 'build-a-form'])
		expect(bySlug.get('build-a-form')).toMatchObject({ state: 'overdue', extended: false })
		const enrolled = Date.now() - 20 * DAY
		expect(Math.abs(bySlug.get('build-a-form')!.dueAt.getTime() - (enrolled + 14 * DAY))).toBeLessThan(60_000)

		expect((await b.post('/learn/account', { intent: 'time-zone', timeZone: 'Asia/Tokyo' })).status).toBe(302)
		const dashboard = load((await b.get('/learn/dashboard')).text)
		expect(dashboard('.due-dates').text()).toContain('Build a sign-up form')
		expect(dashboard('.due-dates').text()).toContain('Overdue')
		expect(dashboard('.due-dates').text()).toContain('Times are in Asia/Tokyo.')
		const home = load((await b.get(COURSE)).text)
		expect(home('.entries .due').text()).toContain('Overdue')
		const entry = load((await b.get(ASSIGNMENT)).text)
		expect(entry('.entry-due').text()).toContain('Overdue')
	})

	it('refuses a time zone that is not an IANA name as written, beside the field, and stores nothing', async () => {
		const { b, scope } = await learner(0)
		for (const timeZone of ['Mars/Olympus', 'asia/tokyo', 'Asia/Tokyo\u0000', '', 'GMT+9']) {
			const res = await b.post('/learn/account', { intent: 'time-zone', timeZone })
			expect(res.status, timeZone).toBe(400)
			expect(load(res.text)('#due-settings').text()).toContain('Choose a time zone from the list.')
		}
		const u = stack.db.t.user_settings
		expect(await stack.db.orm.select().from(u).where(eq(u.user_id, scope.userId))).toEqual([])
	})

	it('accepts a late hand-in, marks it late at hand-in time, and keeps it late after an extension', async () => {
		const { b, user, scope } = await learner(20)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Late work' })).status).toBe(302)
		const [late] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(late).toMatchObject({ late: true, status: 'submitted' })
		expect(late.due_at!.getTime()).toBeLessThan(late.submitted_at.getTime())
		expect(load((await b.get(ASSIGNMENT)).text)('.submission').text()).toContain('Handed in after the due date.')

		// Staff see it in the queue, the roster and the export.
		const author = await stack.signIn('author@acme.test')
		const queue = load((await author.get('/admin/courses/intro-to-web/submissions')).text)
		expect(queue(`tr:contains("${user.email}") .badge-warn`).text()).toBe('Late')
		const csv = (await author.get('/admin/courses/intro-to-web/export')).text
		const [header, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n')
		const column = header.split(',').indexOf('"build-a-form_late"')
		expect(column).toBeGreaterThan(0)
		expect(rows.find((r) => r.includes(user.email))!.split(',')[column]).toBe('"yes"')

		// An extension changes what is due for this learner, not what the stored hand-in was.
		const extended = await author.post(staffPage(user.id), {
			intent: 'extend-due',
			entry: 'build-a-form',
			dueAt: '2099-01-01T12:00',
			reason: 'Was ill',
		})
		expect(extended.status).toBe(302)
		expect(extended.headers.location).toBe(`${staffPage(user.id)}?notice=due-extended`)
		const [still] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(still.late).toBe(true)
	})

	it('marks a quiz attempt after the due date late, for staff on the roster, the learner page and the CSV', async () => {
		// basics-quiz is due 7 days after enrolling: 20 days ago is late, today is on time.
		const late = await learner(20)
		const onTime = await learner(0)
		const answers = { intent: 'submit-quiz', 'q:q-method': 'post', 'q:q-nojs': 'true', 'q:q-element': 'div' }
		for (const { b } of [late, onTime]) {
			for (const lesson of ['what-is-http', 'html-forms'])
				expect((await b.post(`${COURSE}/entry/${lesson}`, { intent: 'complete' })).status).toBe(302)
			expect((await b.post(QUIZ, answers)).headers.location).toMatch(QUIZ)
		}
		const [first] = await listAttempts(stack.db, late.scope, 'intro-to-web', 'basics-quiz')
		expect(first).toMatchObject({ late: true, score: 67 })
		expect(first.due_at!.getTime()).toBeLessThan(first.submitted_at!.getTime())
		const [inTime] = await listAttempts(stack.db, onTime.scope, 'intro-to-web', 'basics-quiz')
		expect(inTime.late).toBe(false)
		expect(inTime.due_at!.getTime()).toBeGreaterThan(inTime.submitted_at!.getTime())

		const author = await stack.signIn('author@acme.test')
		/** The staff's three views of the quiz for a learner: roster cell, learner page, CSV `_late`. */
		async function seen(user: { id: string; email: string }) {
			const roster = load((await author.get('/admin/courses/intro-to-web/dashboard')).text)
			const learnerPage = load((await author.get(staffPage(user.id))).text)
			const csv = (await author.get('/admin/courses/intro-to-web/export')).text
			const [header, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n')
			const column = header.split(',').indexOf('"basics-quiz_late"')
			expect(column).toBeGreaterThan(0)
			return {
				roster: roster(`tr:contains("${user.email}") .badge-warn`).text(),
				learnerPage: learnerPage(`tr:has(th:contains("Basics quiz")) .badge-warn`).text(),
				csv: rows.find((r) => r.includes(user.email))!.split(',')[column],
			}
		}
		expect(await seen(late.user)).toEqual({ roster: 'Late', learnerPage: 'Late', csv: '"yes"' })
		expect(await seen(onTime.user)).toEqual({ roster: '', learnerPage: '', csv: '"no"' })

		// An extension leaves the stored attempt late; a better attempt within it is the score that counts, on time.
		const extended = await author.post(staffPage(late.user.id), {
			intent: 'extend-due',
			entry: 'basics-quiz',
			dueAt: '2099-01-01T12:00',
			reason: 'Was ill',
		})
		expect(extended.status).toBe(302)
		expect((await late.b.post(QUIZ, { ...answers, 'q:q-element': 'form' })).headers.location).toMatch(QUIZ)
		const [still, second] = await listAttempts(stack.db, late.scope, 'intro-to-web', 'basics-quiz')
		expect([still.late, second.late, second.score]).toEqual([true, false, 100])
		expect(await seen(late.user)).toEqual({ roster: '', learnerPage: '', csv: '"no"' })
	})

	it('lets the course staff extend a due date with a reason, audited; the next hand-in is on time', async () => {
		const { b, user, scope } = await learner(20)
		const author = await stack.signIn('author@acme.test')
		const page = load((await author.get(staffPage(user.id))).text)
		expect(page('form input[name="intent"][value="extend-due"]').length).toBe(2)
		const res = await author.post(staffPage(user.id), {
			intent: 'extend-due',
			entry: 'build-a-form',
			dueAt: '2099-06-30T18:00',
			reason: 'Family emergency',
		})
		expect(res.status).toBe(302)
		const x = stack.db.t.due_extensions
		const [row] = await stack.db.orm
			.select()
			.from(x)
			.where(and(eq(x.tenant_id, acme.id), eq(x.user_id, user.id)))
		// Acme has no zone of its own and the learner chose none: UTC.
		expect(row).toMatchObject({
			entry_slug: 'build-a-form',
			reason: 'Family emergency',
			due_at: new Date('2099-06-30T18:00:00Z'),
		})
		const a = stack.db.t.audit_log
		const [audit] = await stack.db.orm
			.select()
			.from(a)
			.where(and(eq(a.tenant_id, acme.id), eq(a.action, 'learner.due_extended'), eq(a.target_id, user.id)))
		expect(audit.metadata).toMatchObject({ entrySlug: 'build-a-form', reason: 'Family emergency' })

		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'On time now' })).status).toBe(302)
		const [onTime] = await listSubmissions(stack.db, scope, 'intro-to-web', 'build-a-form')
		expect(onTime).toMatchObject({ late: false, due_at: new Date('2099-06-30T18:00:00Z') })
		const items = await dueItemsFor(reader(), acme.id, user.id)
		expect(items.find((i) => i.entrySlug === 'build-a-form')).toMatchObject({
			extended: true,
			done: true,
			state: 'done',
		})
	})

	it('refuses an extension without a reason, on an entry with no due date, from a learner or another tenant', async () => {
		const { user } = await learner(1)
		const author = await stack.signIn('author@acme.test')
		const post = (b: typeof author, form: Record<string, string>) => b.post(staffPage(user.id), form)
		const good = { intent: 'extend-due', entry: 'build-a-form', dueAt: '2099-01-01T12:00', reason: 'ok' }
		const noReason = await post(author, { ...good, reason: '  ' })
		expect(noReason.status).toBe(400)
		expect((await post(author, { ...good, entry: 'what-is-http' })).status).toBe(400)
		expect((await post(author, { ...good, dueAt: '2099-02-30T12:00' })).status).toBe(400)
		expect((await post(author, { ...good, dueAt: '2099-01-01' })).status).toBe(400)
		// A learner gets what the page's guard answers any of its forms (adminAction), and nothing is stored.
		const other = await stack.signIn('learner@acme.test')
		const reopen = await post(other, { intent: 'reopen', entry: 'build-a-form', reason: 'x' })
		expect(reopen.status).toBeGreaterThanOrEqual(403)
		expect((await post(other, good)).status).toBe(reopen.status)
		const globex = await stack.signIn('admin@globex.test', 'globex.localhost')
		expect((await globex.post(staffPage(user.id), good)).status).toBe(404)
		const x = stack.db.t.due_extensions
		expect(await stack.db.orm.select().from(x).where(eq(x.user_id, user.id))).toEqual([])
	})

	it('lists (learner, entry, due) pairs of a tenant in a window, without done ones, for the reminders', async () => {
		const { user } = await learner(5) // basics-quiz due in 2 days, build-a-form in 9
		const { user: finished, b } = await learner(5)
		expect((await b.post(ASSIGNMENT, { intent: 'hand-in', text: 'Early' })).status).toBe(302)
		const from = new Date()
		const pairs = await dueInWindow(reader(), acme.id, ['intro-to-web'], { from, to: new Date(Date.now() + 10 * DAY) })
		const mine = pairs.filter((p) => p.userId === user.id).map((p) => p.entrySlug)
		expect(mine).toEqual(['basics-quiz', 'build-a-form'])
		const theirs = pairs.filter((p) => p.userId === finished.id).map((p) => p.entrySlug)
		expect(theirs).toEqual(['basics-quiz'])
		const soon = await dueInWindow(reader(), acme.id, ['intro-to-web'], { from, to: new Date(Date.now() + 3 * DAY) })
		expect(soon.filter((p) => p.userId === user.id).map((p) => p.entrySlug)).toEqual(['basics-quiz'])
		// Another tenant's id finds none of Acme's learners.
		const globex = (await findTenantBySlug(stack.db, 'globex'))!
		const none = await dueInWindow(reader(), globex.id, ['intro-to-web'], { from, to: new Date(Date.now() + 10 * DAY) })
		expect(none).toEqual([])
	})

	describe('the calendar feed', () => {
		async function feedOf(b: Awaited<ReturnType<typeof learner>>['b']) {
			expect((await b.post('/learn/account', { intent: 'calendar-link' })).status).toBe(302)
			const url = load((await b.get('/learn/account')).text)('#calendar-url').attr('value')!
			expect(url).toMatch(/^http:\/\/acme\.localhost(:\d+)?\/learn\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
			return new URL(url).pathname
		}

		it('answers text/calendar with one event per due entry, parsed by ical.js and node-ical, no session, no cookie', async () => {
			const { b, user } = await learner(3)
			const path = await feedOf(b)
			const res = await stack.request(ACME, path)
			expect(res.status).toBe(200)
			expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8')
			expect(res.headers['set-cookie']).toBeUndefined()
			expect(res.headers['cache-control']).toMatch(/^private/)
			expect(res.text).not.toContain(user.id)

			const vcalendar = new ICAL.Component(ICAL.parse(res.text))
			const events = vcalendar.getAllSubcomponents('vevent')
			expect(events).toHaveLength(2)
			for (const event of events) {
				expect(event.getFirstPropertyValue('uid')).toMatch(/^[0-9a-f]{32}@acme\.localhost$/)
				expect(event.getFirstPropertyValue('dtstamp')).toBeTruthy()
				expect(String(event.getFirstPropertyValue('url'))).toMatch(
					/^http:\/\/acme\.localhost(:\d+)?\/learn\/course\/intro-to-web\/entry\//,
				)
				const alarm = event.getFirstSubcomponent('valarm')!
				expect(alarm.getFirstPropertyValue('action')).toBe('DISPLAY')
				expect(String(alarm.getFirstPropertyValue('trigger'))).toBe('-P1D')
			}
			const parsed = Object.values(nodeIcal.sync.parseICS(res.text)).flatMap((c) =>
				c?.type === 'VEVENT' ? [c as VEvent] : [],
			)
			expect(parsed).toHaveLength(2)
			// node-ical keeps URL's VALUE=URI parameter: the value is `url.val`.
			const urlOf = (e: VEvent) => String((e.url as unknown as { val?: string })?.val ?? e.url)
			const quiz = parsed.find((e) => urlOf(e).endsWith('/basics-quiz'))!
			expect(Math.abs(quiz.start.getTime() - (Date.now() + 4 * DAY))).toBeLessThan(60_000)
			expect(quiz.summary).toBe('Basics quiz · Introduction to the Web')

			// The same learner's same entry keeps its UID across fetches.
			const again = new ICAL.Component(ICAL.parse((await stack.request(ACME, path)).text))
			expect(again.getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'))).toEqual(
				events.map((e) => e.getFirstPropertyValue('uid')),
			)
		})

		it('answers the same 404 for every other spelling, a replaced token, and another tenant host', async () => {
			const { b } = await learner(3)
			const path = await feedOf(b)
			const token = path.slice('/learn/calendar/'.length, -'.ics'.length)
			const flip = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())
			const changedCase = token.replace(/[A-Za-z]/, flip)
			const variants = [
				`/learn/calendar/${changedCase}.ics`,
				`/learn/calendar/${token.toUpperCase()}.ics`,
				`/learn/calendar/${token}.ICS`,
				`/learn/calendar/${token}`,
				`/learn/calendar/${token}.ics/extra`,
				`/learn/calendar/${token}.ics.ics`,
				`/learn/calendar/${token}x.ics`,
				`/learn/calendar/${token.slice(0, -1)}.ics`,
				`/learn/calendar/${token}%00.ics`,
				`/learn/calendar/${encodeURIComponent(token + '.ics')}%2Fx`,
				`/learn/calendar/%20${token}.ics`,
				`/learn/calendar/${'A'.repeat(43)}.ics`,
			]
			for (const variant of variants) {
				const res = await stack.request(ACME, variant)
				expect([404, 400, 308, 301], variant).toContain(res.status)
				if (res.status === 404) expect(res.headers['content-type'] ?? '', variant).not.toContain('text/calendar')
				expect(res.headers['set-cookie'], variant).toBeUndefined()
			}
			expect((await stack.request('globex.localhost', path)).status).toBe(404)
			// Another method reads nothing and writes nothing.
			const posted = await stack.request(ACME, path, { method: 'POST', body: '' })
			expect(posted.status).toBeGreaterThanOrEqual(400)
			expect(posted.text).not.toContain('BEGIN:VCALENDAR')
			// The feed read with a session cookie sets none either.
			expect((await b.get(path)).headers['set-cookie']).toBeUndefined()
			// A new link revokes the old one at once.
			const fresh = await feedOf(b)
			expect(fresh).not.toBe(path)
			expect((await stack.request(ACME, path)).status).toBe(404)
			expect((await stack.request(ACME, fresh)).status).toBe(200)
			// Only the hash is stored.
			const f = stack.db.t.calendar_feeds
			const rows = await stack.db.orm.select().from(f)
			expect(JSON.stringify(rows)).not.toContain(fresh.slice('/learn/calendar/'.length, -4))
		})
	})
})

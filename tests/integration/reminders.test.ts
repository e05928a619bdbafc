/**
 * Reminders, their opt-outs and course announcements (issue 41, decision 0047) on both databases,
 * through the built app: mails read at the loopback SMTP server with their RFC 8058 headers, the
 * one-click unsubscribe POST in hostile variants, the account page's opt-outs, and announcements
 * (rate limit, audit, opt-out, locale).
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueue } from '#app/jobs.server.ts'
import { sweepReminders } from '#app/reminders/reminders.server.ts'
import { hashPassword } from '#app/accounts/password.server.ts'
import { putEnrollment } from '#db/learning.ts'
import { updateUser } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import type { ReceivedMail } from '#tests/support/mail.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const DAY = 86_400_000

describe.each(DIALECTS)('reminders on %s', (dialect) => {
	let stack: Stack
	let acme = ''
	let globex = ''
	let n = 0
	let passwordHash = ''

	/** A learner of the tenant enrolled in the course `daysAgo` days ago, with no activity since. */
	async function learner(
		opts: { tenant?: string; locale?: 'en' | 'es' | 'de'; daysAgo?: number; deactivated?: boolean } = {},
	) {
		const email = `rem-${dialect}-${++n}@acme.test`
		const tenantId = opts.tenant ?? acme
		const user = await createUser(stack.db, {
			tenant_id: tenantId,
			email,
			name: `Learner ${n}`,
			role: 'student',
			password_hash: passwordHash,
			locale: opts.locale ?? 'en',
			email_verified_at: new Date(),
		})
		if (opts.deactivated) await updateUser(stack.db, user.id, { deactivated_at: new Date() })
		// Each tenant's own course (the content service has intro-to-web for acme, globex-onboarding for globex).
		await putEnrollment(
			stack.db,
			{ tenantId, userId: user.id },
			tenantId === acme ? COURSE : 'globex-onboarding',
			'active',
		)
		await enrolledAgo(tenantId, user.id, opts.daysAgo ?? 8)
		return { id: user.id, email, tenantId }
	}
	async function enrolledAgo(tenantId: string, userId: string, days: number) {
		const e = stack.db.t.enrollments
		await stack.db.orm
			.update(e)
			.set({ enrolled_at: new Date(Date.now() - days * DAY) })
			.where(and(eq(e.tenant_id, tenantId), eq(e.user_id, userId)))
	}
	const deps = () => ({ db: stack.db, cms: null as never, env: stack.env })
	const sweep = async () => {
		await enqueue(stack.db, 'reminders.sweep', {})
		await stack.settled()
	}
	const sentRows = async (userId: string) => {
		const r = stack.db.t.reminders_sent
		return stack.db.orm.select().from(r).where(eq(r.user_id, userId))
	}
	const optOuts = async (userId: string) => {
		const o = stack.db.t.reminder_opt_outs
		return (await stack.db.orm.select({ kind: o.kind }).from(o).where(eq(o.user_id, userId))).map((r) => r.kind)
	}
	const unsubscribePath = (mail: ReceivedMail) => {
		const header = mail.headers['list-unsubscribe']
		const url = new URL(/^<(.+)>$/.exec(header)![1])
		return { url, path: url.pathname }
	}

	beforeAll(async () => {
		// No schedule: each test runs the sweep when it means to.
		stack = await startStack(dialect, { REMINDER_SWEEP_SECONDS: '0', RATE_LIMIT_DRIVER: 'memory' })
		acme = stack.seeded.tenants.acme.id
		globex = stack.seeded.tenants.globex.id
		passwordHash = await hashPassword(DEMO_PASSWORD)
	}, 120_000)
	afterAll(async () => {
		await stack?.close()
	})

	it('mails an inactive learner once, in their locale, with the course link and one-click unsubscribe headers', async () => {
		const idle = await learner({ locale: 'es' })
		const recent = await learner({ daysAgo: 2 })
		const ancient = await learner({ daysAgo: 60 })
		const gone = await learner({ deactivated: true })
		const other = await learner({ tenant: globex })
		await sweep()
		const mail = await stack.mail.waitFor(idle.email)
		expect(mail.subject).toMatch(/^Retoma Introducción a la Web donde lo dejaste · /)
		// Links on the tenant's canonical host (acme's custom domain), in the learner's locale.
		expect(mail.text).toContain(`http://learn.acme.test:${stack.port}/es/learn/course/${COURSE}`)
		expect(mail.text).toContain(`Hace ${stack.env.REMINDER_INACTIVITY_DAYS} días`)
		expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		const { url } = unsubscribePath(mail)
		expect(url.origin).toBe(`http://learn.acme.test:${stack.port}`)
		expect(url.pathname).toMatch(/^\/es\/learn\/unsubscribe\/[^/]+$/)
		// The footer carries the same link as the header.
		expect(mail.text).toContain(url.href)
		// The other tenant's learner is reminded too, on their own host.
		const theirs = await stack.mail.waitFor(other.email)
		expect(unsubscribePath(theirs).url.host).toBe(`globex.localhost:${stack.port}`)
		for (const quiet of [recent, ancient, gone]) expect(stack.mail.count(quiet.email)).toBe(0)
		// Sweeping again, and several sweeps at once, send nothing more.
		await sweep()
		expect(await Promise.all([1, 2, 3, 4].map(() => sweepReminders(deps())))).toEqual([0, 0, 0, 0])
		await stack.settled()
		expect(stack.mail.count(idle.email)).toBe(1)
		expect(await sentRows(idle.id)).toMatchObject([{ kind: 'inactivity', tenant_id: acme }])
	}, 60_000)

	it('reminds of an entry due within two days once, in the learner’s locale and time zone, with unsubscribe headers', async () => {
		// The basics quiz is due 7 days after enrolling: enrolled 6 days ago, it is due in a day.
		const l = await learner({ daysAgo: 6, locale: 'de' })
		const settings = stack.db.t.user_settings
		await stack.db.orm.insert(settings).values({ tenant_id: acme, user_id: l.id, time_zone: 'Asia/Tokyo' })
		await sweep()
		const mail = await stack.mail.waitFor(l.email)
		expect(mail.subject).toMatch(/^Bald fällig in Einführung ins Web: /)
		expect(mail.text).toContain(`http://learn.acme.test:${stack.port}/de/learn/course/${COURSE}/entry/basics-quiz`)
		// The zone's short name and its IANA name (issue 52: a time shown names its zone).
		expect(mail.text).toMatch(/ist \d{1,2}\. \S+ \d{4}, \d\d:\d\d GMT\+9 \(Asia\/Tokyo\) fällig\./)
		expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		expect(unsubscribePath(mail).path).toMatch(/^\/de\/learn\/unsubscribe\/[^.]+\.due_soon\./)
		await sweep()
		expect(stack.mail.count(l.email)).toBe(1)
		const rows = await sentRows(l.id)
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({ kind: 'due_soon' })
		expect(rows[0].item_key).toMatch(/^intro-to-web\/basics-quiz@\d{4}-\d\d-\d\dT/)
		// Opted out of due-date reminders: the next item (the same entry, extended) sends nothing.
		const o = stack.db.t.reminder_opt_outs
		await stack.db.orm.insert(o).values({ tenant_id: acme, user_id: l.id, kind: 'due_soon' })
		const r = stack.db.t.reminders_sent
		await stack.db.orm.delete(r).where(eq(r.user_id, l.id))
		await sweep()
		expect(stack.mail.count(l.email)).toBe(1)
	}, 60_000)

	it('several sweeps racing over the same learners queue each reminder once (the key decides)', async () => {
		const many = await Promise.all([1, 2, 3, 4, 5, 6].map(() => learner()))
		const queued = await Promise.all([1, 2, 3, 4, 5].map(() => sweepReminders(deps())))
		expect(queued.reduce((a, b) => a + b, 0)).toBe(many.length)
		await stack.settled()
		for (const l of many) expect(stack.mail.count(l.email)).toBe(1)
	}, 60_000)

	it('reminds again only for a new spell: after coming back and going quiet again', async () => {
		const l = await learner()
		await sweep()
		await stack.mail.waitFor(l.email)
		// The reminder was 20 days ago; the learner came back 9 days ago and has been quiet since.
		const r = stack.db.t.reminders_sent
		await stack.db.orm
			.update(r)
			.set({ sent_at: new Date(Date.now() - 20 * DAY) })
			.where(eq(r.user_id, l.id))
		await enrolledAgo(l.tenantId, l.id, 30)
		const p = stack.db.t.entry_progress
		await stack.db.orm.insert(p).values({
			id: `p-${l.id}`,
			tenant_id: l.tenantId,
			user_id: l.id,
			course_slug: COURSE,
			entry_slug: 'what-is-http',
			last_viewed_at: new Date(Date.now() - 9 * DAY),
		})
		await sweep()
		await stack.mail.waitFor(l.email, 1)
		expect(await sentRows(l.id)).toHaveLength(2)
		await sweep()
		expect(stack.mail.count(l.email)).toBe(2)
	}, 60_000)

	it('one-click unsubscribe: GET asks and changes nothing; POST without a session opts out that kind; hostile variants refused', async () => {
		const l = await learner()
		await sweep()
		const mail = await stack.mail.waitFor(l.email)
		const { path } = unsubscribePath(mail)
		const anon = stack.browser(ACME)
		// GET: a confirm page with a POST form, nothing changed (a link scanner opening it).
		const page = await anon.get(path)
		expect(page.status).toBe(200)
		expect(page.text).toMatch(/<form[^>]*method="post"/)
		expect(page.headers['referrer-policy']).toBe('no-referrer')
		expect(await optOuts(l.id)).toEqual([])
		// Another tenant's host: the signature is bound to the tenant.
		expect((await stack.browser('globex.localhost').get(path)).status).toBe(404)
		expect((await stack.request('globex.localhost', path, { method: 'POST', body: '' })).status).toBe(404)
		// A forged or altered token, another kind in the same token, upper case: 404, nothing stored.
		const token = path.split('/').pop()!
		const [user, kind, exp, mac] = token.split('.')
		const bad = [
			`${user}.${kind}.${exp}.${mac.slice(0, -2)}AA`,
			`${user}.announcement.${exp}.${mac}`,
			`${user}.${kind}.zzzzzz.${mac}`,
			token.toUpperCase(),
			`${token}.extra`,
		]
		for (const t of bad)
			expect((await stack.request(ACME, `/learn/unsubscribe/${t}`, { method: 'POST', body: '' })).status, t).toBe(404)
		// Percent-encoded dots: refused before the route (the path is not in normal form).
		const encoded = `/learn/unsubscribe/${token.replace(/\./g, '%2E')}`
		expect((await stack.request(ACME, encoded, { method: 'POST', body: '' })).status).toBe(400)
		// Cross-site browser form: refused before the route.
		const crossSite = await stack.request(ACME, path, {
			method: 'POST',
			headers: { origin: 'https://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
			body: 'List-Unsubscribe=One-Click',
		})
		expect(crossSite.status).toBe(403)
		expect(await optOuts(l.id)).toEqual([])
		// The mail provider's one-click POST: no cookie, no Origin, RFC 8058's body.
		const oneClick = () =>
			stack.request(ACME, path, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'List-Unsubscribe=One-Click',
			})
		const done = await oneClick()
		expect(done.status).toBe(200)
		expect(await optOuts(l.id)).toEqual(['inactivity'])
		// A duplicate POST answers the same and stores nothing more.
		expect((await oneClick()).status).toBe(200)
		expect(await optOuts(l.id)).toEqual(['inactivity'])
		// Opted out: a new spell sends nothing.
		const r = stack.db.t.reminders_sent
		await stack.db.orm.delete(r).where(eq(r.user_id, l.id))
		await sweep()
		expect(stack.mail.count(l.email)).toBe(1)
	}, 60_000)

	it('the account page turns kinds off and on with a real form; a queued reminder to a learner who opted out is not sent', async () => {
		const l = await learner()
		const b = await stack.signIn(l.email)
		const page = await b.get('/learn/account')
		expect(page.status).toBe(200)
		for (const kind of ['inactivity', 'due_soon', 'announcement'])
			expect(page.text).toMatch(new RegExp(`<input type="checkbox" name="kinds" checked="" value="${kind}"/>`))
		const saved = await b.post('/learn/account', { intent: 'reminders', kinds: 'announcement' })
		expect(saved.status).toBe(302)
		expect(saved.headers.location).toBe('/learn/account?notice=reminders-saved')
		expect((await optOuts(l.id)).sort()).toEqual(['due_soon', 'inactivity'])
		// A kind that does not exist: refused, nothing changed.
		expect((await b.post('/learn/account', { intent: 'reminders', kinds: 'everything' })).status).toBe(400)
		expect((await optOuts(l.id)).sort()).toEqual(['due_soon', 'inactivity'])
		await sweep()
		expect(stack.mail.count(l.email)).toBe(0)
		// All back on.
		const body = new URLSearchParams([
			['intent', 'reminders'],
			['kinds', 'inactivity'],
			['kinds', 'due_soon'],
			['kinds', 'announcement'],
		])
		const on = await stack.request(ACME, '/learn/account', {
			method: 'POST',
			headers: {
				cookie: b.cookieHeader(),
				'content-type': 'application/x-www-form-urlencoded',
				origin: `http://${ACME}:${stack.port}`,
			},
			body: body.toString(),
		})
		expect(on.status).toBe(302)
		expect(await optOuts(l.id)).toEqual([])
	}, 60_000)

	it('announcements: course staff write to enrolled learners in their locale; opt-outs respected; audited; rate-limited per course', async () => {
		const es = await learner({ locale: 'es', daysAgo: 1 })
		const de = await learner({ locale: 'de', daysAgo: 1 })
		const off = await learner({ daysAgo: 1 })
		const o = stack.db.t.reminder_opt_outs
		await stack.db.orm.insert(o).values({ tenant_id: acme, user_id: off.id, kind: 'announcement' })
		const author = await stack.signIn('author@acme.test')
		const form = await author.get(`/admin/courses/${COURSE}/announce`)
		expect(form.status).toBe(200)
		expect(form.text).toMatch(/<form[^>]*method="post"/)
		// Field errors beside the fields.
		const empty = await author.post(`/admin/courses/${COURSE}/announce`, { subject: '', message: '' })
		expect(empty.status).toBe(400)
		// A NUL (PostgreSQL cannot store it) or a line break in the subject line: refused beside the field, nothing sent.
		for (const [subject, message] of [
			['Live\u0000', 'Fine.'],
			['Live\r\nBcc: x@evil.test', 'Fine.'],
			['Live', 'Bad \u0000 byte'],
		]) {
			const refused = await author.post(`/admin/courses/${COURSE}/announce`, { subject, message })
			expect(refused.status, JSON.stringify(subject + message)).toBe(400)
			expect(refused.text).toContain('Remove the control characters')
		}
		const posted = await author.post(`/admin/courses/${COURSE}/announce`, {
			subject: 'Live session <Thursday>',
			message: 'We meet at 18:00.\nBring questions about {site}.',
		})
		expect(posted.status).toBe(302)
		expect(posted.headers.location).toBe(`/admin/courses/${COURSE}/announce?notice=announcement-sent`)
		await stack.settled()
		const esMail = await stack.mail.waitFor(es.email)
		expect(esMail.subject).toMatch(/^Introducción a la Web: Live session <Thursday> · /)
		expect(esMail.text).toContain('Bring questions about {site}.')
		expect(esMail.html).toContain('<p style="white-space:pre-line">We meet at 18:00.\nBring questions')
		expect(esMail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		expect(unsubscribePath(esMail).path).toMatch(/^\/es\/learn\/unsubscribe\//)
		expect((await stack.mail.waitFor(de.email)).text).toContain('Kurs öffnen')
		expect(stack.mail.count(off.email)).toBe(0)
		// The seeded learner (enrolled) is mailed too; the other tenant's is not.
		expect(stack.mail.count('learner@globex.test')).toBe(0)
		// Audited, with the author and course.
		const a = stack.db.t.audit_log
		const rows = await stack.db.orm.select().from(a).where(eq(a.action, 'course.announcement_sent'))
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({ tenant_id: acme, target_kind: 'announcement' })
		expect(rows[0].metadata).toMatchObject({ courseSlug: COURSE, subject: 'Live session <Thursday>' })
		// The fan-out retried (a crash after some mails) mails nobody twice.
		await enqueue(stack.db, 'announcement.fanOut', {
			origin: `http://${ACME}:${stack.port}`,
			tenantId: acme,
			locale: 'en',
			announcementId: rows[0].target_id!,
		})
		await stack.settled()
		expect(stack.mail.count(es.email)).toBe(1)
		// Three a day per course, whoever writes: the tenant admin's fourth is refused.
		for (let i = 2; i <= 3; i++)
			expect((await author.post(`/admin/courses/${COURSE}/announce`, { subject: `S${i}`, message: 'm' })).status).toBe(
				302,
			)
		const admin = await stack.signIn('admin@acme.test')
		const limited = await admin.post(`/admin/courses/${COURSE}/announce`, { subject: 'S4', message: 'm' })
		expect(limited.status).toBe(429)
		expect(limited.headers['retry-after']).toBeTruthy()
		expect(await stack.db.orm.select().from(a).where(eq(a.action, 'course.announcement_sent'))).toHaveLength(3)
		// A learner cannot post one.
		const learnerBrowser = await stack.signIn('learner@acme.test')
		const refused = await learnerBrowser.post(`/admin/courses/${COURSE}/announce`, { subject: 'x', message: 'y' })
		expect(refused.status).toBe(403)
	}, 90_000)
})

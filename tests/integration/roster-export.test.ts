import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import XLSX from 'xlsx'
import { hashPassword } from '#app/accounts/password.server.ts'
import { LOCALES, localePath, type Locale } from '#app/i18n/locales.ts'
import { putTimeZone } from '#db/due-dates.ts'
import { putEnrollment } from '#db/learning.ts'
import { type User } from '#db/users.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { createUser } from '#tests/support/repository.ts'

// The roster CSV opened as a spreadsheet would open it in each locale (issue 52, decision 0055):
// split at the locale's list separator, its UTF-8 read through the byte-order mark, its date column
// typed as a date. SheetJS stands in for Excel and LibreOffice, which cannot run here.

const ACME = 'acme.localhost'
const COURSE = 'intro-to-web'
const SEPARATOR: Record<Locale, string> = { en: ',', zh: ',', es: ';', fr: ';', de: ';', pt: ';' }
// 20:37:16.695 UTC on 28 November: 12:37:16 in Los Angeles, 21:37:16 in Paris.
const ENROLLED = new Date('2026-11-28T20:37:16.695Z')
const COMPLETED = new Date('2026-11-29T07:05:09.004Z')

/** The file as a spreadsheet reads it when its list separator is `separator`: rows of typed cells. */
function asSpreadsheet(bytes: Buffer, separator: string) {
	const book = XLSX.read(new Uint8Array(bytes), { type: 'array', FS: separator, cellDates: true })
	const sheet = book.Sheets[book.SheetNames[0]!]!
	const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null })
	const cell = (row: number, column: number) => sheet[XLSX.utils.encode_cell({ r: row, c: column })] as XLSX.CellObject
	return { rows, cell }
}

describe.each(DIALECTS)('the roster CSV as spreadsheets open it, on %s', (dialect) => {
	let stack: Stack
	let learner: User
	let finisher: User
	beforeAll(async () => {
		stack = await startStack(dialect)
		const acme = stack.seeded.tenants.acme
		const passwordHash = await hashPassword(DEMO_PASSWORD)
		const person = (email: string, name: string) =>
			createUser(stack.db, { tenant_id: acme.id, email, name, role: 'student', password_hash: passwordHash })
		// A name with both separators and a formula, and one in other alphabets.
		learner = await person('export-one@acme.test', 'Lovelace; Ada, =1+1')
		finisher = await person('export-two@acme.test', 'Élodie Östberg 王芳')
		for (const [user, completed] of [
			[learner, null],
			[finisher, COMPLETED],
		] as const) {
			await putEnrollment(stack.db, { tenantId: acme.id, userId: user.id }, COURSE, 'active')
			const e = stack.db.t.enrollments
			await stack.db.orm
				.update(e)
				.set({ enrolled_at: ENROLLED, completed_at: completed })
				.where(and(eq(e.user_id, user.id), eq(e.course_slug, COURSE)))
		}
		// The tenant admin reads dates in their own zone; the course admin has none, so the tenant's (UTC).
		await putTimeZone(
			stack.db,
			{ tenantId: acme.id, userId: stack.seeded.users['acme:admin@acme.test']!.id },
			'America/Los_Angeles',
		)
	})
	afterAll(() => stack?.close())

	// One session per address: sign-ins are rate-limited per address and IP.
	const sessions = new Map<string, ReturnType<Stack['signIn']>>()
	const exportIn = async (locale: Locale, email = 'admin@acme.test') => {
		if (!sessions.has(email)) sessions.set(email, stack.signIn(email, ACME))
		const b = await sessions.get(email)!
		// The admin's own interface language, as the locale switcher in every page's footer sets it.
		expect((await b.post('/learn/locale', { locale, redirectTo: '/admin' })).status).toBe(303)
		const res = await b.get(localePath(locale, `/admin/courses/${COURSE}/export`))
		expect(res.status, String(res.headers.location)).toBe(200)
		expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
		return res.body
	}

	it.each(LOCALES)('opens in columns with typed dates in a spreadsheet set to %s', async (locale) => {
		const bytes = await exportIn(locale)
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		const { rows, cell } = asSpreadsheet(bytes, SEPARATOR[locale])
		const header = rows[0] as string[]
		const column = (name: string) => header.indexOf(name)
		expect(header.slice(0, 5)).toEqual(['name', 'email', 'status', 'enrolled_at', 'completed_at'])
		// Then each quiz's `_late` (decision 0061), last so that no column before moves.
		expect(header.slice(-4)).toEqual(['enrolled_at_utc', 'completed_at_utc', 'time_zone', 'basics-quiz_late'])
		// Every row has the header's columns: no name or date was split, nothing ran together.
		for (const row of rows) expect(row).toHaveLength(header.length)
		const at = (user: User) => rows.findIndex((r) => r[1] === user.email)
		expect(rows[at(learner)]![0]).toBe('Lovelace; Ada, =1+1')
		expect(rows[at(finisher)]![0]).toBe('Élodie Östberg 王芳')
		// The dates: typed as dates, on the admin's wall clock (Los Angeles), to the second.
		const enrolled = cell(at(finisher), column('enrolled_at'))
		const completed = cell(at(finisher), column('completed_at'))
		expect(enrolled.t).toBe('d')
		expect(completed.t).toBe('d')
		const wall = (d: Date) => [
			d.getFullYear(),
			d.getMonth() + 1,
			d.getDate(),
			d.getHours(),
			d.getMinutes(),
			d.getSeconds(),
		]
		expect(wall(enrolled.v as Date)).toEqual([2026, 11, 28, 12, 37, 16])
		expect(wall(completed.v as Date)).toEqual([2026, 11, 28, 23, 5, 9])
		expect(cell(at(learner), column('completed_at'))?.v ?? null).toBeNull()
		// For machines, the instant itself, and the zone of the columns above.
		expect(rows[at(finisher)]!.slice(-4, -1)).toEqual([
			ENROLLED.toISOString(),
			COMPLETED.toISOString(),
			'America/Los_Angeles',
		])
		expect(cell(at(learner), column('completed_at_utc'))?.v ?? null).toBeNull()
		// A number stays a number.
		expect(cell(at(finisher), column('progress_percent')).t).toBe('n')
	})

	it('writes the date column in the one form every spreadsheet reads, and the separator of the locale', async () => {
		for (const locale of LOCALES) {
			const text = new TextDecoder().decode(await exportIn(locale))
			const sep = SEPARATOR[locale]
			const line = text.split('\r\n').find((l) => l.includes(finisher.email))!
			expect(line).toContain(
				`"export-two@acme.test"${sep}"active"${sep}"2026-11-28 12:37:16"${sep}"2026-11-28 23:05:09"${sep}`,
			)
			// The other separator would give one column per line: the complaint of issue 52.
			const other = sep === ';' ? ',' : ';'
			expect(asSpreadsheet(Buffer.from(`\ufeff${text}`), other).rows[0]).not.toHaveLength(
				asSpreadsheet(Buffer.from(`\ufeff${text}`), sep).rows[0]!.length,
			)
		}
	})

	it('keeps formulas escaped in every separator, and a name with separators in one cell', async () => {
		for (const locale of ['en', 'fr'] as const) {
			const text = new TextDecoder().decode(await exportIn(locale))
			const sep = SEPARATOR[locale]
			expect(text).toContain(`"Lovelace; Ada, =1+1"${sep}"export-one@acme.test"`)
		}
		const e = stack.db.t.users
		await stack.db.orm.update(e).set({ name: '=HYPERLINK("x")' }).where(eq(e.id, learner.id))
		const { rows } = asSpreadsheet(await exportIn('de'), ';')
		expect(rows.find((r) => r[1] === learner.email)![0]).toBe('\'=HYPERLINK("x")')
		await stack.db.orm.update(e).set({ name: 'Lovelace; Ada, =1+1' }).where(eq(e.id, learner.id))
	})

	it("writes dates in the tenant's zone for an admin who chose none", async () => {
		const { rows, cell } = asSpreadsheet(await exportIn('pt', 'author@acme.test'), ';')
		const header = rows[0] as string[]
		const row = rows.findIndex((r) => r[1] === finisher.email)
		const d = cell(row, header.indexOf('enrolled_at')).v as Date
		expect([d.getHours(), d.getMinutes(), d.getSeconds()]).toEqual([20, 37, 16])
		expect(rows[row]![header.indexOf('time_zone')]).toBe('UTC')
	})
})

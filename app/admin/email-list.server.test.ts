import { describe, expect, it } from 'vitest'
import { decodeCsv, detectSeparator, emailsFromText, ListError, peopleFromCsv, readCsv } from './email-list.server.ts'

/** A CSV file's addresses, as the invitation page reads them (the people's email cells). */
const emailsFromCsv = (text: string) => peopleFromCsv(text).map((p) => p.email)

describe('email lists', () => {
	it('reads pasted addresses separated by lines, commas and semicolons, in order, duplicates kept', () => {
		expect(emailsFromText(' a@x.test\r\nb@x.test, c@x.test;;\n\n a@x.test ')).toEqual([
			'a@x.test',
			'b@x.test',
			'c@x.test',
			'a@x.test',
		])
		expect(emailsFromText(' \n , ')).toEqual([])
	})

	it('reads the email column named by a header, in any position and case, after a byte-order mark', () => {
		const csv = '\uFEFFName,EMAIL ,Team\r\n"Lee, Ann",ann@x.test,red\r\nBob,bob@x.test,blue\r\n'
		expect(emailsFromCsv(csv)).toEqual(['ann@x.test', 'bob@x.test'])
	})

	it('reads the first column when there is no header, and the last line without a line end', () => {
		expect(emailsFromCsv('a@x.test,1\nb@x.test,2')).toEqual(['a@x.test', 'b@x.test'])
		expect(emailsFromCsv('email\n')).toEqual([])
		expect(emailsFromCsv('')).toEqual([])
	})

	it('unquotes cells with doubled quotes, commas and line breaks inside, and skips blank lines', () => {
		expect(emailsFromCsv('"a ""b""",c\n\n"x\ny",z\r\n')).toEqual(['a "b"', 'x\ny'])
		expect(() => emailsFromCsv('email\n"unclosed')).toThrow()
		// A formula-like or HTML cell is a value like any other: the report shows it as text.
		expect(emailsFromCsv('email\n=cmd|\' /c calc\'!A1\n"<img src=x onerror=alert(1)>"')).toEqual([
			"=cmd|' /c calc'!A1",
			'<img src=x onerror=alert(1)>',
		])
	})

	it('keeps a row with an empty email cell out, and a lone carriage return ends a line (old Mac files)', () => {
		expect(emailsFromCsv('email,name\n,Nobody\rc@x.test,C')).toEqual(['c@x.test'])
	})
})

describe('CSV as spreadsheets save it (decision 0040)', () => {
	it('detects comma, semicolon and tab from the first line, outside quotes', () => {
		expect(detectSeparator('email;name\r\na@x.test;A')).toBe(';')
		expect(detectSeparator('\uFEFFemail\tname\na@x.test\tA')).toBe('\t')
		expect(detectSeparator('"a;b;c",d\n')).toBe(',')
		expect(detectSeparator('\n\nemail;name')).toBe(';')
		expect(detectSeparator('email\n')).toBe(',')
	})

	it('reads people by header names in any order, or by position without a header', () => {
		expect(peopleFromCsv('\uFEFFCourse;Email;Name\r\nintro;a@x.test;"A; B"\r\n')).toEqual([
			{ row: 2, email: 'a@x.test', name: 'A; B', role: '', course: 'intro', language: '' },
		])
		expect(peopleFromCsv('a@x.test\tAnn\tstudent\tintro\tes\n')).toEqual([
			{ row: 1, email: 'a@x.test', name: 'Ann', role: 'student', course: 'intro', language: 'es' },
		])
		// The language column by any of its names (decision 0065).
		for (const header of ['language', 'Locale', 'LANG'])
			expect(peopleFromCsv(`${header},email\npt-BR,a@x.test\n`)[0].language, header).toBe('pt-BR')
	})

	it('refuses bytes that are not UTF-8, and names the row where an unclosed quote opens', () => {
		expect(decodeCsv(Buffer.from('\uFEFFJosé', 'utf8'))).toBe('José')
		expect(() => decodeCsv(Buffer.from([0x4a, 0x6f, 0x73, 0xe9]))).toThrow(ListError)
		try {
			readCsv('email\r\nok@x.test\r\n"open\r\nmore\r\n')
			expect.unreachable()
		} catch (error) {
			expect(error).toBeInstanceOf(ListError)
			expect([(error as ListError).reason, (error as ListError).row]).toEqual(['notCsv', 3])
		}
	})
})

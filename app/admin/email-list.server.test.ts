import { describe, expect, it } from 'vitest'
import { emailsFromCsv, emailsFromText } from './email-list.server.ts'

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

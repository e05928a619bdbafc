import { describe, expect, it } from 'vitest'
import { ERASED, personMatcher, scrubJson } from './erased-values.ts'

describe('a person’s values in free text', () => {
	it('replaces a name as written, in any case, keeping the other words', () => {
		const m = personMatcher(['Élodie Östberg', 'elodie@example.test'])
		expect(m.replace('ÉLODIE ÖSTBERG asked for it')).toBe(`${ERASED} asked for it`)
		expect(m.replace('Mail ELODIE@example.test today')).toBe(`Mail ${ERASED} today`)
		expect(m.replace('Someone else asked')).toBe('Someone else asked')
	})

	it('finds spellings the exact pattern cannot see, and then erases the whole text', () => {
		// Greek capitals drop the tonos; Turkish capitals of i and ı are İ and I; macOS writes decomposed.
		expect(personMatcher(['Αθηνά Παπαδοπούλου']).replace('ΑΘΗΝΑ ΠΑΠΑΔΟΠΟΥΛΟΥ ήρθε')).toBe(ERASED)
		expect(personMatcher(['İpek Işık']).replace('İPEK IŞIK geldi')).toBe(ERASED)
		expect(personMatcher(['ipek ışık']).mentions('İPEK IŞIK')).toBe(true)
		expect(personMatcher(['Ömer Ünal']).replace('Ömer Ünal'.normalize('NFD') + ' left')).toBe(ERASED)
		expect(personMatcher(['Ｙｕｋｉ Ｔａｎａｋａ']).mentions('yuki tanaka wrote')).toBe(true)
	})

	it('takes a short name as a word of its own, but anywhere in a script without spaces', () => {
		const al = personMatcher(['Al'])
		expect(al.replace('Also fine')).toBe('Also fine')
		expect(al.replace('Al asked, and al again')).toBe(`${ERASED} asked, and ${ERASED} again`)
		expect(personMatcher(['王芳']).replace('王芳请假了')).toBe(`${ERASED}请假了`)
		expect(personMatcher(['Ян']).replace('Янина пришла')).toBe('Янина пришла')
	})

	it('matches nothing without values, and leaves keys and other types alone', () => {
		expect(personMatcher(['', '  ']).replace('anything')).toBe('anything')
		const m = personMatcher(['Ярослава Ёлкина'])
		expect(scrubJson({ 'Ярослава Ёлкина': 1, list: ['ярослава ёлкина', 2, null] }, m)).toEqual({
			'Ярослава Ёлкина': 1,
			list: [ERASED, 2, null],
		})
	})
})

import { describe, expect, it } from 'vitest'
import type { Messages } from '#app/i18n/index.ts'
import en from '#app/i18n/catalogues/en.ts'
import { NOTICES, readNotice, withNotice } from './notices.ts'

describe('notices', () => {
	it('carries a notice in the URL value it was published with, beside the query already there', () => {
		expect(withNotice('/learn/account', 'localeChanged')).toBe('/learn/account?notice=locale-changed')
		expect(withNotice('/learn/course/x/entry/y?preview=1', 'completePreviousInModule')).toBe(
			'/learn/course/x/entry/y?preview=1&notice=complete_previous_in_module',
		)
		// A notice that names a row carries the row's id, never the text it names (decision 0032).
		expect(withNotice('/admin/users/invite', 'invitationSent', '0b5e4a2c-1d3f-4e5a-8b6c-7d8e9f0a1b2c')).toBe(
			'/admin/users/invite?notice=invitation-sent&id=0b5e4a2c-1d3f-4e5a-8b6c-7d8e9f0a1b2c',
		)
	})

	it('names rows only in the notices whose sentences name something, and no notice sentence takes a value otherwise', () => {
		for (const [name, notice] of Object.entries(NOTICES)) {
			const text = notice.text(en as unknown as Messages)
			expect(/\{\w+\}/.test(text), `${name}: ${text}`).toBe('ref' in notice)
		}
	})

	it("reads only the page's own notices: a value two pages share means each page's own", () => {
		const params = new URLSearchParams(withNotice('/learn/magic', 'magicLinkSent').split('?')[1])
		expect(readNotice(params, ['magicLinkSent'])).toBe('magicLinkSent')
		expect(readNotice(params, ['resetLinkSent'])).toBe('resetLinkSent')
		expect(readNotice(params, ['roleChanged', 'userSignedOut'])).toBeNull()
		expect(readNotice(new URLSearchParams('notice=__proto__'), ['roleChanged'])).toBeNull()
		expect(readNotice(new URLSearchParams(), ['roleChanged'])).toBeNull()
	})
})

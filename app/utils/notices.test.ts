import { describe, expect, it } from 'vitest'
import { readNotice, withNotice } from './notices.ts'

describe('notices', () => {
	it('carries a notice in the URL value it was published with, beside the query already there', () => {
		expect(withNotice('/learn/account', 'localeChanged')).toBe('/learn/account?notice=locale-changed')
		expect(withNotice('/learn/course/x/entry/y?preview=1', 'completePreviousInModule')).toBe(
			'/learn/course/x/entry/y?preview=1&notice=complete_previous_in_module',
		)
		expect(withNotice('/admin/users/invite', 'invitationSent', { email: 'a+b@x.test' })).toBe(
			'/admin/users/invite?notice=invitation-sent&email=a%2Bb%40x.test',
		)
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

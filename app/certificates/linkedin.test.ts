import { describe, expect, it } from 'vitest'
import { linkedInAddToProfile } from './linkedin.ts'

describe('linkedInAddToProfile', () => {
	it('fills the certification fields, encoded', () => {
		const url = new URL(
			linkedInAddToProfile({
				name: 'Intro & <Web>',
				organizationName: 'Acme "Learning"',
				issuedAt: new Date('2026-01-31T23:30:00Z'),
				certUrl: 'https://acme.example/certificates/abc?x=1&y=2',
				certId: 'abc',
			}),
		)
		expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add')
		expect(Object.fromEntries(url.searchParams)).toEqual({
			startTask: 'CERTIFICATION_NAME',
			name: 'Intro & <Web>',
			organizationName: 'Acme "Learning"',
			issueYear: '2026',
			issueMonth: '1',
			certUrl: 'https://acme.example/certificates/abc?x=1&y=2',
			certId: 'abc',
		})
	})
})

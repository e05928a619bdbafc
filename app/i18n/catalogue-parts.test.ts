import { describe, expect, it } from 'vitest'
import { cataloguePartsOf } from './index.ts'

// Which parts of the message catalogue the browser loads for a page (decision 0046): a part a page
// reads and does not load breaks it when it hydrates; one it loads and does not read costs bytes.
describe('cataloguePartsOf', () => {
	it.each([
		['/learn', 'learner'],
		['/es/learn/dashboard', 'learner'],
		['/administrator', 'learner'],
		['/admin/courses/intro-to-web/dashboard', 'learner,course'],
		['/es/admin/courses/intro-to-web/learners/1', 'learner,course'],
		['/admin/users', 'learner,course,admin'],
		['/admin/courses', 'learner,course,admin'],
		['/admin/courses/', 'learner,course,admin'],
		['/admin/audit/x', 'learner,course,admin'],
		['/admin', 'learner,course,admin,audit'],
		['/admin/', 'learner,course,admin,audit'],
		['/fr/admin', 'learner,course,admin,audit'],
		['/admin/audit', 'learner,course,admin,audit'],
		['/zh/admin/audit/', 'learner,course,admin,audit'],
		['/admin/settings', 'learner,course,admin,settings'],
		['/admin/settings/', 'learner,course,admin,settings'],
		['/de/admin/settings/sign-in', 'learner,course,admin,settings'],
		['/admin/settings/webhooks', 'learner,course,admin,settings'],
		['/admin/settingsx', 'learner,course,admin'],
		['/admin/tenants', 'learner,course,admin'],
		['/admin/tenants/api', 'learner,course,admin,settings'],
		['/pt/admin/tenants/api/', 'learner,course,admin,settings'],
		['/admin/tenants/apix', 'learner,course,admin'],
		['/admin/courses/settings/dashboard', 'learner,course'],
	])('%s reads %s', (path, parts) => {
		expect(cataloguePartsOf(path).join(',')).toBe(parts)
	})
})

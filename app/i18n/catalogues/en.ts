import admin from './admin-en.ts'
import course from './course-en.ts'
import learner from './learner-en.ts'
import auditPart from './audit-en.ts'
import settingsPart from './settings-en.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

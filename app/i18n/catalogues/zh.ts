import admin from './admin-zh.ts'
import course from './course-zh.ts'
import learner from './learner-zh.ts'
import auditPart from './audit-zh.ts'
import settingsPart from './settings-zh.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

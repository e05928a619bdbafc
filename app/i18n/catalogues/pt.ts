import admin from './admin-pt.ts'
import course from './course-pt.ts'
import learner from './learner-pt.ts'
import auditPart from './audit-pt.ts'
import settingsPart from './settings-pt.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

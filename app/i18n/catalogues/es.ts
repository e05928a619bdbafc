import admin from './admin-es.ts'
import course from './course-es.ts'
import learner from './learner-es.ts'
import auditPart from './audit-es.ts'
import settingsPart from './settings-es.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

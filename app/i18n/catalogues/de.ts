import admin from './admin-de.ts'
import course from './course-de.ts'
import learner from './learner-de.ts'
import auditPart from './audit-de.ts'
import settingsPart from './settings-de.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

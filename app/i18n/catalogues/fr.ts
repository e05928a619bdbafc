import admin from './admin-fr.ts'
import course from './course-fr.ts'
import learner from './learner-fr.ts'
import auditPart from './audit-fr.ts'
import settingsPart from './settings-fr.ts'

/** The whole catalogue: the server renders every page. */
export default {
	...learner,
	...admin,
	grading: course.grading,
	adminCourses: { ...course.adminCourses, ...auditPart.adminCourses },
	...settingsPart,
}

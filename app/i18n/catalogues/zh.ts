import admin from './admin-zh.ts'
import course from './course-zh.ts'
import learner from './learner-zh.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...course, ...admin }

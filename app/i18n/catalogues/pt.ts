import admin from './admin-pt.ts'
import course from './course-pt.ts'
import learner from './learner-pt.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...course, ...admin }

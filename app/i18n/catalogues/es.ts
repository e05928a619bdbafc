import admin from './admin-es.ts'
import course from './course-es.ts'
import learner from './learner-es.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...course, ...admin }

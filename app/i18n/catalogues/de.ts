import admin from './admin-de.ts'
import course from './course-de.ts'
import learner from './learner-de.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...course, ...admin }

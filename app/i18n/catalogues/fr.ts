import admin from './admin-fr.ts'
import course from './course-fr.ts'
import learner from './learner-fr.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...course, ...admin }

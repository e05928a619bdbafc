import learner from './learner-de.ts'
import staff from './staff-de.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

import learner from './learner-fr.ts'
import staff from './staff-fr.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

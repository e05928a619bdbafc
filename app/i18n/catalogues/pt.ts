import learner from './learner-pt.ts'
import staff from './staff-pt.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

import learner from './learner-es.ts'
import staff from './staff-es.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

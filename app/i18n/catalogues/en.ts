import learner from './learner-en.ts'
import staff from './staff-en.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

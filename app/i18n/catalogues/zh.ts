import learner from './learner-zh.ts'
import staff from './staff-zh.ts'

/** The whole catalogue: the server renders every page. */
export default { ...learner, ...staff }

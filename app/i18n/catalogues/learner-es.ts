// What every page with scripts needs in the browser; the staff pages load ./staff-es.ts as well (index.ts).
import common from '../common/es.ts'
import accounts from '../accounts/es.ts'
import learning from '../learning/es.ts'
import content from '../content/es.ts'
import certificates from '../certificates/es.ts'

export default { common, accounts, learning, content, certificates }

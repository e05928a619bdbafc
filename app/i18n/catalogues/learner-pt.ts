// What every page with scripts needs in the browser; the staff pages load ./staff-pt.ts as well (index.ts).
import common from '../common/pt.ts'
import accounts from '../accounts/pt.ts'
import learning from '../learning/pt.ts'
import content from '../content/pt.ts'
import certificates from '../certificates/pt.ts'

export default { common, accounts, learning, content, certificates }

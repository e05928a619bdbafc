// What every page with scripts needs in the browser; the staff pages load ./staff-en.ts as well (index.ts).
import common from '../common/en.ts'
import accounts from '../accounts/en.ts'
import learning from '../learning/en.ts'
import content from '../content/en.ts'
import certificates from '../certificates/en.ts'

export default { common, accounts, learning, content, certificates }

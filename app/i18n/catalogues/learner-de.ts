// What every page with scripts needs in the browser; the staff pages load ./staff-de.ts as well (index.ts).
import common from '../common/de.ts'
import accounts from '../accounts/de.ts'
import learning from '../learning/de.ts'
import content from '../content/de.ts'
import certificates from '../certificates/de.ts'

export default { common, accounts, learning, content, certificates }

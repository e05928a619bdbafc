// What every page with scripts needs in the browser; the staff pages load ./staff-fr.ts as well (index.ts).
import common from '../common/fr.ts'
import accounts from '../accounts/fr.ts'
import learning from '../learning/fr.ts'
import content from '../content/fr.ts'
import certificates from '../certificates/fr.ts'

export default { common, accounts, learning, content, certificates }

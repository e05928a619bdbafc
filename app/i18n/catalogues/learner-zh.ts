// What every page with scripts needs in the browser; the staff pages load ./staff-zh.ts as well (index.ts).
import common from '../common/zh.ts'
import accounts from '../accounts/zh.ts'
import learning from '../learning/zh.ts'
import content from '../content/zh.ts'
import certificates from '../certificates/zh.ts'

export default { common, accounts, learning, content, certificates }

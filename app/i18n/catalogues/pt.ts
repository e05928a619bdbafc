import common from '../common/pt.ts'
import accounts from '../accounts/pt.ts'
import learning from '../learning/pt.ts'
import admin from '../admin/pt.ts'
import adminCourses from '../adminCourses/pt.ts'
import content from '../content/pt.ts'
import grading from '../grading/pt.ts'
import certificates from '../certificates/pt.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

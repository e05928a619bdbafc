import common from '../common/de.ts'
import accounts from '../accounts/de.ts'
import learning from '../learning/de.ts'
import admin from '../admin/de.ts'
import adminCourses from '../adminCourses/de.ts'
import content from '../content/de.ts'
import grading from '../grading/de.ts'
import certificates from '../certificates/de.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

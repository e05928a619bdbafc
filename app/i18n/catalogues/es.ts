import common from '../common/es.ts'
import accounts from '../accounts/es.ts'
import learning from '../learning/es.ts'
import admin from '../admin/es.ts'
import adminCourses from '../adminCourses/es.ts'
import content from '../content/es.ts'
import grading from '../grading/es.ts'
import certificates from '../certificates/es.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

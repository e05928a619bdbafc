import common from '../common/en.ts'
import accounts from '../accounts/en.ts'
import learning from '../learning/en.ts'
import admin from '../admin/en.ts'
import adminCourses from '../adminCourses/en.ts'
import content from '../content/en.ts'
import grading from '../grading/en.ts'
import certificates from '../certificates/en.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

import common from '../common/zh.ts'
import accounts from '../accounts/zh.ts'
import learning from '../learning/zh.ts'
import admin from '../admin/zh.ts'
import adminCourses from '../adminCourses/zh.ts'
import content from '../content/zh.ts'
import grading from '../grading/zh.ts'
import certificates from '../certificates/zh.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

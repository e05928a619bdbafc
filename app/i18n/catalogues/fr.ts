import common from '../common/fr.ts'
import accounts from '../accounts/fr.ts'
import learning from '../learning/fr.ts'
import admin from '../admin/fr.ts'
import adminCourses from '../adminCourses/fr.ts'
import content from '../content/fr.ts'
import grading from '../grading/fr.ts'
import certificates from '../certificates/fr.ts'

export default { common, accounts, learning, admin, adminCourses, content, grading, certificates }

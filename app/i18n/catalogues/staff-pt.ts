// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/pt.ts'
import adminCourses from '../adminCourses/pt.ts'
import grading from '../grading/pt.ts'

export default { admin, adminCourses, grading }

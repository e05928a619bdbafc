// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/es.ts'
import adminCourses from '../adminCourses/es.ts'
import grading from '../grading/es.ts'

export default { admin, adminCourses, grading }

// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/en.ts'
import adminCourses from '../adminCourses/en.ts'
import grading from '../grading/en.ts'

export default { admin, adminCourses, grading }

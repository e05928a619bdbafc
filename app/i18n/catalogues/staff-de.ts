// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/de.ts'
import adminCourses from '../adminCourses/de.ts'
import grading from '../grading/de.ts'

export default { admin, adminCourses, grading }

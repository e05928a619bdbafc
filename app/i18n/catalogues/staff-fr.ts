// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/fr.ts'
import adminCourses from '../adminCourses/fr.ts'
import grading from '../grading/fr.ts'

export default { admin, adminCourses, grading }

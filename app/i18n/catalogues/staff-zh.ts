// The admin pages' messages: loaded in the browser only on /admin pages (index.ts).
import admin from '../admin/zh.ts'
import adminCourses from '../adminCourses/zh.ts'
import grading from '../grading/zh.ts'

export default { admin, adminCourses, grading }

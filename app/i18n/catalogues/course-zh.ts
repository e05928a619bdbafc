// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-zh.ts).
import adminCourses from '../adminCourses/zh.ts'
import grading from '../grading/zh.ts'

export default { adminCourses, grading }

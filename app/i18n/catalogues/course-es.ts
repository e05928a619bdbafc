// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-es.ts).
import adminCourses from '../adminCourses/es.ts'
import grading from '../grading/es.ts'

export default { adminCourses, grading }

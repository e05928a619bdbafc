// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-pt.ts).
import adminCourses from '../adminCourses/pt.ts'
import grading from '../grading/pt.ts'

export default { adminCourses, grading }

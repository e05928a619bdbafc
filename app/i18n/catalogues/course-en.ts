// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-en.ts).
import adminCourses from '../adminCourses/en.ts'
import grading from '../grading/en.ts'

export default { adminCourses, grading }

// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-de.ts).
import adminCourses from '../adminCourses/de.ts'
import grading from '../grading/de.ts'

export default { adminCourses, grading }

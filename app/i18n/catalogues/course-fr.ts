// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
// The audit log's labels are a part of their own (./audit-fr.ts).
import adminCourses from '../adminCourses/fr.ts'
import grading from '../grading/fr.ts'

export default { adminCourses, grading }

// The course staff's messages (course admin pages, grading): loaded in the browser only on /admin pages (index.ts).
import adminCourses from '../adminCourses/de.ts'
import grading from '../grading/de.ts'

export default { adminCourses, grading }

// The audit log's labels: loaded in the browser only on the pages that list audit rows (index.ts).
import adminCourses from '../adminCourses/pt.ts'

export default { adminCourses: { audit: adminCourses.audit } }

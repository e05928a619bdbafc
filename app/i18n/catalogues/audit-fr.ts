// The audit log's labels: loaded in the browser only on the pages that list audit rows (index.ts).
import audit from '../adminAudit/fr.ts'

export default { adminCourses: { audit } }

// The administration's messages (users, tenants, audit): loaded in the browser only on /admin pages outside one course's (index.ts).
import admin from '../admin/pt.ts'

export default { admin }

// The settings pages' messages: loaded in the browser only on /admin/settings and below, and on the
// platform's API keys (/admin/tenants/api) that share its key page's (index.ts).
import adminSettings from '../adminSettings/en.ts'

export default { adminSettings }

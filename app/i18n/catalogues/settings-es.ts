// The settings pages' messages: loaded in the browser only on /admin/settings and below (index.ts).
import adminSettings from '../adminSettings/es.ts'

export default { adminSettings }

// The admin home's counts, reached through the admin room: routes never import db/ (eslint.config.js).
export { adminCounts } from '#db/admin.ts'

// The account lookups routes need, reached through the accounts room: routes never import db/
// (eslint.config.js), and a lookup needs no more than the repository's query.
export { findUserByEmail, findUserById } from '#db/users.ts'

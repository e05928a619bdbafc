// A learner's enrollment as the repository reads it, reached through the learning room: routes never
// import db/ (eslint.config.js).
export { findEnrollment } from '#db/learning.ts'

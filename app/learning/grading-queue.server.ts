// The grading queue and the hand-ins staff open from it, reached through the learning room: routes
// never import db/ (eslint.config.js), and these reads need no more than the repository's queries.
export { findCourseSubmission, gradingQueue, isWatching, setWatching, submissionHistory } from '#db/grading.ts'
export type { SubmissionWithFiles } from '#db/submissions.ts'

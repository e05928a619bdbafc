// Entry of `npm run bench` (after its build step): the suite itself is
// bench/suite.ts. React and React Router pick their production or development
// code by NODE_ENV when first loaded, and the scale scenario runs the built
// server in this process, so the variable is set before anything loads them.
process.env.NODE_ENV = 'production'
await import('./suite.ts')

export {}

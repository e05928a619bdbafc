'use strict'
/**
 * `strapi build` (the admin panel) for this JavaScript project. The CLI looks for a tsconfig.json
 * in every folder above, finds the app's, and tries to compile this project as TypeScript (exit 1,
 * no message). Strapi's build is called here as its CLI calls it, without one.
 */
const path = require('node:path')

const strapiDir = path.dirname(require.resolve('@strapi/strapi/package.json'))
const { build } = require(path.join(strapiDir, 'dist/src/node/build.js'))
const { createLogger } = require(path.join(strapiDir, 'dist/src/cli/utils/logger.js'))

build({
	cwd: path.resolve(__dirname, '..'),
	logger: createLogger({ debug: false, silent: false, timestamp: false }),
	tsconfig: undefined,
	bundler: 'vite',
	minify: true,
	sourcemap: false,
	stats: false,
}).catch((error) => {
	console.error(error)
	process.exit(1)
})

'use strict'
/**
 * `strapi build`, as its CLI runs it: the server's TypeScript compiled to dist/ (what `strapi start`
 * runs; a type error fails here), then the admin panel into dist/build (where Strapi serves it from).
 */
const path = require('node:path')

const strapiDir = path.dirname(require.resolve('@strapi/strapi/package.json'))
const { build } = require(path.join(strapiDir, 'dist/src/node/build.js'))
const { createLogger } = require(path.join(strapiDir, 'dist/src/cli/utils/logger.js'))
const { loadTsConfig } = require(path.join(strapiDir, 'dist/src/cli/utils/tsconfig.js'))

const cwd = path.resolve(__dirname, '..')
const logger = createLogger({ debug: false, silent: false, timestamp: false })

build({
	cwd,
	logger,
	tsconfig: loadTsConfig({ cwd, path: 'tsconfig.json', logger }),
	bundler: 'vite',
	minify: true,
	sourcemap: false,
	stats: false,
}).catch((error) => {
	console.error(error)
	process.exit(1)
})

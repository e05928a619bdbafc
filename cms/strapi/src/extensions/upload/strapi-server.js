'use strict'
// The upload plugin's admin routes, limited to an author's own sites (src/lms/media-scope.js).
const { guardUploadPlugin } = require('../../lms/media-scope')

module.exports = (plugin) => guardUploadPlugin(plugin)

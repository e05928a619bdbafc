'use strict'
// The upload plugin's admin routes, limited to an author's own sites (src/lms/media-scope.js), and
// its upload service, taking only the types content needs (src/lms/upload-types.js).
const { guardUploadPlugin } = require('../../lms/media-scope')
const { guardUploadTypes } = require('../../lms/upload-types')

module.exports = (plugin) => guardUploadTypes(guardUploadPlugin(plugin))

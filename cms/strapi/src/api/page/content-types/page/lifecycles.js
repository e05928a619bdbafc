'use strict'
// en's title may not be empty; a translation's may (src/lms/required.js).
module.exports = require('../../../../lms/required').requireInDefaultLocale('title')

'use strict'
// en's name may not be empty; a translation's may (src/lms/required.js).
module.exports = require('../../../../lms/required').requireInDefaultLocale('name')

'use strict'
// The wall between sites on every admin route of Strapi's plugins (lms/guard.js puts it first).
module.exports = require('../lms/guard').sitePolicy

module.exports = [
	'strapi::logger',
	'strapi::errors',
	'strapi::security',
	'strapi::cors',
	'strapi::poweredBy',
	'strapi::query',
	'strapi::body',
	'strapi::session',
	'strapi::favicon',
	// Around the public folder's static server: /uploads/ never runs (decision 0049).
	'global::uploads-inert',
	'strapi::public',
]

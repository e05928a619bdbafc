module.exports = [
	'strapi::logger',
	'strapi::errors',
	// The LMS content API answers its own paths (/api/v1/…) before Strapi's security headers,
	// sessions and body parsing: its answers are JSON or asset bytes for the app alone.
	'global::content-api',
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

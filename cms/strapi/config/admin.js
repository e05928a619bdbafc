// src/utils/preview.ts as compiled: Strapi loads this configuration from dist/, beside the compiled src/.
const { previewUrl, allowedOrigins } = require('../src/utils/preview')

module.exports = ({ env }) => ({
	auth: { secret: env('ADMIN_JWT_SECRET') },
	apiToken: { salt: env('API_TOKEN_SALT') },
	transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } },
	secrets: { encryptionKey: env('ENCRYPTION_KEY') },
	// No feedback survey, no Enterprise promotion, no AI features: nothing leaves the machine.
	flags: { nps: false, promoteEE: false },
	autoOpen: false,
	// CI and the CMS's API alone need no admin panel: no `strapi build` then (STRAPI_ADMIN=false).
	serveAdminPanel: env.bool('STRAPI_ADMIN', true),
	watchIgnoreFiles: ['scripts/**', 'tests/**'],
	// The Preview button of a course: the app's staff preview of its draft (src/utils/preview.ts).
	preview: {
		enabled: Boolean(env('LMS_APP_URLS')),
		config: { allowedOrigins: allowedOrigins(), handler: previewUrl },
	},
})

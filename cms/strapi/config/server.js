// The CMS listens on loopback by default: the app and the authors' browsers reach it there, or through
// a reverse proxy in production (docs/authoring.md).
module.exports = ({ env }) => ({
	host: env('STRAPI_HOST', '127.0.0.1'),
	port: env.int('STRAPI_PORT', 1337),
	url: env('STRAPI_PUBLIC_URL', ''),
	app: { keys: env.array('APP_KEYS') },
	// The media library's files (the local upload provider writes under <public>/uploads).
	dirs: { public: env('STRAPI_PUBLIC_DIR', './public') },
	// No update check, no telemetry: nothing is fetched from outside at run time.
	telemetryDisabled: true,
	cron: { enabled: false },
	logger: { updates: { enabled: false }, startup: { enabled: false } },
})

const path = require('node:path')

// SQLite by default (a file under .tmp/, or CMS_DATABASE_FILE); PostgreSQL when CMS_DATABASE_URL is
// given. Not DATABASE_URL: that is the app's database, and the CMS keeps its own.
module.exports = ({ env }) => {
	const url = env('CMS_DATABASE_URL', '')
	if (/^postgres(ql)?:\/\//.test(url)) {
		return {
			connection: {
				client: 'postgres',
				connection: { connectionString: url, ssl: env.bool('CMS_DATABASE_SSL', false) },
				pool: { min: 0, max: env.int('CMS_DATABASE_POOL_MAX', 10) },
			},
		}
	}
	return {
		connection: {
			client: 'sqlite',
			connection: { filename: path.resolve(__dirname, '..', env('CMS_DATABASE_FILE', '.tmp/data.db')) },
			useNullAsDefault: true,
		},
	}
}

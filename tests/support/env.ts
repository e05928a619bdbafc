import { parseEnv, type Env } from '#app/platform/env.server.ts'

export const TEST_SECRETS = {
	AUTH_SECRET: 'test-auth-secret-0123456789abcdef-0123456789',
	CMS_API_UUID: '8a1d3c5e-7f90-4b12-a345-6789abcdef01',
	CMS_PROJECT_UUID: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
	CMS_WEBHOOK_SECRET: 'test-webhook-secret-0123456789',
	// Both external providers on: in test mode they talk to the app's test identity provider.
	AUTH_GOOGLE_ID: 'test-google-client',
	AUTH_GOOGLE_SECRET: 'test-google-secret-0123456789',
	AUTH_GITHUB_ID: 'test-github-client',
	AUTH_GITHUB_SECRET: 'test-github-secret-0123456789',
	// Tenants' identity providers' secrets are sealed under it (decision 0069).
	SSO_ENCRYPTION_KEY: 'dGVzdC1zc28ta2V5LTAxMjM0NTY3ODlhYmNkZWYwMTI=',
}

export const DEMO_PASSWORD = 'demo-password-2026'

/** A complete, valid environment for the app under test. */
export function testEnv(overrides: Record<string, string>): Env {
	return parseEnv({
		NODE_ENV: 'test',
		AUTH_URL: 'http://localhost',
		DATABASE_URL: 'file::memory:',
		CMS_API_URL: 'http://127.0.0.1:9/api/v1',
		EMAIL_FROM: 'noreply@lms.test',
		APP_BASE_DOMAIN: 'localhost',
		RATE_LIMIT_DRIVER: 'memory',
		SEED_DEMO_PASSWORD: DEMO_PASSWORD,
		// Mail goes out from the job queue: polled twice a second in tests.
		JOB_POLL_SECONDS: '0.5',
		// No scheduled reminder sweep unless a test asks for one (its content reads would count in tests that
		// count the content service's requests); the sweep's tests run it when they mean to (decision 0047).
		REMINDER_SWEEP_SECONDS: '0',
		...TEST_SECRETS,
		...overrides,
	})
}

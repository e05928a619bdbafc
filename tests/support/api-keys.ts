import type { Stack } from './stack.ts'

/**
 * An API key made as a tenant admin makes one (decision 0071): signed in, the form of
 * /admin/settings/api posted, the secret read from the page that shows it once.
 */
export async function createApiKey(
	stack: Stack,
	options: { scope: 'read' | 'read_write'; course?: string; host?: string; admin?: string; name?: string },
) {
	const host = options.host ?? 'acme.localhost'
	const admin = await stack.signIn(options.admin ?? `admin@${host.split('.')[0]}.test`, host)
	const res = await admin.post('/admin/settings/api', {
		intent: 'create',
		name: options.name ?? `test ${options.scope}${options.course ? ` ${options.course}` : ''}`,
		scope: options.scope,
		course: options.course ?? '',
	})
	const secret = /lmsk_[A-Za-z0-9_-]{32}/.exec(res.text)?.[0]
	if (res.status !== 201 || !secret) throw new Error(`creating an API key on ${host}: ${res.status}`)
	return secret
}

/** A platform key (decision 0087), made as the seeded super admin makes one at /admin/tenants/api on the apex. */
export async function createPlatformKey(stack: Stack, options: { scope: 'read' | 'read_write'; name?: string }) {
	const root = await stack.signIn('root@platform.test', 'localhost')
	const res = await root.post('/admin/tenants/api', {
		intent: 'create',
		name: options.name ?? `platform ${options.scope}`,
		scope: options.scope,
	})
	const secret = /lmsp_[A-Za-z0-9_-]{32}/.exec(res.text)?.[0]
	if (res.status !== 201 || !secret) throw new Error(`creating a platform key: ${res.status}`)
	return secret
}

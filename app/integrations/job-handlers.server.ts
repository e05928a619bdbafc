import { jobMailContext, recipientMailContext, siteName } from '#app/content/site.server.ts'
import { localePath } from '#app/i18n/locales.ts'
import { composeEmail, deliver } from '#app/platform/emails.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import { absoluteUrl } from '#app/platform/forms.server.ts'
import type { JobDeps, JobHandlers } from '#app/platform/jobs.server.ts'
import { canonicalOrigin } from '#app/platform/tenant.server.ts'
import { findTenantById } from '#db/tenants.ts'
import { findEndpoint, tenantAdmins } from '#db/webhooks.ts'
import { INTEGRATION_EMAILS } from './emails.ts'
import { integrationJobs, type IntegrationJobPayloads } from './jobs.server.ts'
import { deliverWebhook, type WebhookEnv } from './webhook-delivery.server.ts'

// What each of this room's jobs does when a worker runs it (decision 0033).

export type IntegrationJobDeps = JobDeps & { env: WebhookEnv & Pick<Env, 'AUTH_URL' | 'APP_BASE_DOMAIN'> }

export const integrationJobHandlers: JobHandlers<IntegrationJobDeps, IntegrationJobPayloads> = {
	async 'webhook.deliver'(deps, job) {
		return deliverWebhook(deps, job, (tx, endpoint) =>
			integrationJobs.enqueueSteps(tx, 'mail.webhookDisabled', {
				tenantId: endpoint.tenant_id,
				endpointId: endpoint.id,
			}),
		)
	},
	async 'mail.webhookDisabled'(deps, job) {
		const tenant = await findTenantById(deps.db, job.tenantId)
		const endpoint = tenant ? await findEndpoint(deps.db, tenant.id, job.endpointId) : undefined
		if (!tenant || !endpoint) return 'the tenant or the endpoint is gone'
		if (endpoint.disabled_reason !== 'failing') return 'the endpoint was enabled again'
		const origin = canonicalOrigin(deps.env.AUTH_URL, tenant, deps.env.APP_BASE_DOMAIN)
		const site = await jobMailContext(deps, { origin, tenantId: tenant.id, locale: 'en' })
		const admins = await tenantAdmins(deps.db, tenant.id)
		for (const admin of admins) {
			const to = await recipientMailContext(site, admin.id)
			await deliver(
				to,
				composeEmail(INTEGRATION_EMAILS, {
					kind: 'webhook_disabled',
					to: admin.email,
					locale: admin.locale,
					site: await siteName(to, admin.locale),
					url: absoluteUrl(to, localePath(admin.locale, '/admin/settings/webhooks')),
					values: { url: endpoint.url },
				}),
			)
		}
		if (admins.length === 0) return 'the tenant has no admin to tell'
	},
}

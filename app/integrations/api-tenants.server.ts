import { z } from 'zod'
import { apiTenants } from '#db/api-lists.ts'
import type { Tenant } from '#db/tenants.ts'
import { createTenant, findTenantById, reservedDomain, setTenantStatus } from '../admin/tenants.server.ts'
import { createTenantBody, tenantListQuery, tenantStatusBody, type apiTenant } from '../platform/api-v1-schemas.ts'
import { canonicalOrigin, liveCustomDomain } from '../platform/tenant.server.ts'
import { customDomainField, emailField, tenantNameField, tenantSlugField } from '../platform/validation.ts'
import {
	DEFAULT_LIMIT,
	decodeCursor,
	iso,
	pageOf,
	queryOf,
	type ApiCall,
	type ApiHandler,
	type PlatformCaller,
} from './api.server.ts'
import { ApiProblem, parse } from './problems.server.ts'

/*
 * /api/v1/tenants (issue 49, decision 0087): the platform's tenants for a super admin's platform key,
 * through the code paths of /admin/tenants (createTenant with its first admin's invitation,
 * setTenantStatus with the sessions it ends), each audited with the key's id.
 */

type Handler = ApiHandler<PlatformCaller>

function tenantView(call: ApiCall<PlatformCaller>, t: Tenant): z.infer<typeof apiTenant> {
	return {
		id: t.id,
		slug: t.slug,
		name: t.name,
		status: t.status,
		customDomain: t.custom_domain,
		customDomainLive: liveCustomDomain(t) !== null,
		url: canonicalOrigin(call.ctx.origin, t, call.ctx.env.APP_BASE_DOMAIN),
		createdAt: t.created_at.toISOString(),
		updatedAt: t.updated_at.toISOString(),
		suspendedAt: iso(t.suspended_at),
	}
}

async function target(call: ApiCall<PlatformCaller>) {
	const tenant = await findTenantById(call.ctx.db, call.params.tenantId ?? '')
	if (!tenant) throw new ApiProblem(404, 'NOT_FOUND', 'No such tenant.')
	return tenant
}

export const listTenants: Handler = async (call) => {
	const query = parse(tenantListQuery, queryOf(call.url), 'query')
	const limit = query.limit ?? DEFAULT_LIMIT
	const rows = await apiTenants(
		call.ctx.db,
		{ after: decodeCursor(query.cursor), limit },
		{ status: query.status, updatedSince: query.updated_since ? new Date(query.updated_since) : undefined },
	)
	return { status: 200, body: pageOf(rows, limit, (t) => tenantView(call, t)) }
}

export const readTenant: Handler = async (call) => ({ status: 200, body: tenantView(call, await target(call)) })

/**
 * A new tenant with its first admin invited (its site in the CMS made by a job), as the tenants page
 * creates one; a slug or custom domain already taken is a 409.
 */
export const createTenantByApi: Handler = async (call) => {
	const input = parse(createTenantBody, call.body, 'body')
	const fields = parse(
		z.object({
			slug: tenantSlugField,
			name: tenantNameField,
			customDomain: customDomainField.optional(),
			adminEmail: emailField,
		}),
		input,
		'body',
	)
	if (fields.customDomain && reservedDomain(call.ctx, fields.customDomain))
		throw new ApiProblem(400, 'VALIDATION_FAILED', 'The body is not valid.', [
			{ path: ['customDomain'], message: 'A host under the platform’s own domain belongs to the platform.' },
		])
	const tenant = await createTenant(call.caller.scope, {
		slug: fields.slug,
		name: fields.name,
		custom_domain: fields.customDomain,
		admin_email: fields.adminEmail,
	})
	if (!tenant) throw new ApiProblem(409, 'CONFLICT', 'The slug or the custom domain is taken.')
	return { status: 201, body: tenantView(call, tenant) }
}

/** Suspends, archives or reactivates a tenant, as the tenants page does; the same status changes nothing. */
export const changeTenantStatus: Handler = async (call) => {
	const { status } = parse(tenantStatusBody, call.body, 'body')
	const tenant = await target(call)
	if (tenant.status !== status) await setTenantStatus(call.caller.scope, tenant, status)
	return { status: 200, body: tenantView(call, await target(call)) }
}

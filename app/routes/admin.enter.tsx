import { Form, redirect } from 'react-router'
import { Submit } from '#app/ui/feedback.tsx'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { readTenantOverride } from '#app/admin/admin.server.ts'
import { enterTenant, overrideProofUsed } from '#app/admin/tenant-override.server.ts'
import { proofHolds } from '#app/accounts/auth.server.ts'
import { notFound } from '#app/platform/errors.ts'
import { sessionCookie } from '#app/accounts/session.server.ts'
import { findUserById } from '#app/accounts/users.server.ts'
import type { Route } from './+types/admin.enter.ts'

/**
 * The tenant override: a super_admin (who belongs to no tenant) arrives here from /admin/tenants on
 * the apex with a proof, valid for 60 seconds, once, bound to this tenant and to their current
 * token_version. Opening the link only checks it and asks (decision 0032: no GET signs anyone in,
 * so a link opened by another site, a scanner or a prefetch does nothing); the button, a
 * same-origin post, gets a session on this tenant's host.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const { tenant, userId, proof } = readTenantOverride(ctx, request)
	const user = await findUserById(ctx.db, userId)
	// A replayed link (history, logs, a shared screen), a stale or foreign one: 404, as before it was asked.
	if (
		!user ||
		user.role !== 'super_admin' ||
		user.tenant_id !== null ||
		user.deactivated_at ||
		!proofHolds(ctx, user, proof) ||
		(await overrideProofUsed(ctx, proof))
	)
		throw notFound()
	return { tenant: tenant.name, email: user.email }
}

export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const { tenant, userId, proof } = readTenantOverride(ctx, request)
	const session = await enterTenant(ctx, tenant, userId, proof)
	if (!session) throw notFound()
	const { cookie } = await sessionCookie(ctx, session)
	return redirect(localePath(ctx.locale, '/admin'), { headers: { 'set-cookie': cookie } })
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.admin.enter.title }]

export default function Enter({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.admin.enter
	return (
		<section className="narrow">
			<h1>{m.title}</h1>
			<p>{t.rich(m.question, { tenant: <strong>{d.tenant}</strong>, email: <strong>{d.email}</strong> })}</p>
			<Form method="post" className="actions">
				<Submit>{t.format(m.submit, { tenant: d.tenant })}</Submit>
			</Form>
		</section>
	)
}

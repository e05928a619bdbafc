import { data } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { verifyCertificate } from '#app/certificates/verify.server.ts'
import { Notice } from '#app/ui/feedback.tsx'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { notFound } from '#app/platform/errors.ts'
import { siteName } from '#app/content/site.server.ts'
import type { Route } from './+types/certificates.$id.ts'

/**
 * A certificate's public verification page: anyone, signed in or not, without JavaScript, in the
 * visitor's locale. It says valid, revoked (and when) or not ours, from this tenant's own records
 * and keys (app/certificates/verify.server.ts). Not indexed, never cached: a revocation shows at once.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	if (!ctx.tenant) throw notFound()
	const site = await siteName(ctx, ctx.locale)
	const verdict = await verifyCertificate(
		{ db: ctx.db, tenant: ctx.tenant, origin: ctx.origin, baseDomain: ctx.env.APP_BASE_DOMAIN },
		params.id,
	)
	const headers = { 'cache-control': 'no-store' }
	if (verdict.state === 'not_ours') return data({ site, state: 'not_ours' as const }, { status: 404, headers })
	const c = verdict.certificate
	return data(
		{
			site,
			state: verdict.state,
			recipientName: c.recipient_name,
			courseTitle: c.course_title,
			// A credential that cannot be read names no issuer: the tenant's own name stands in.
			issuerName: verdict.issuer.name || ctx.tenant.name,
			issuerDid: verdict.issuer.did,
			issuedAt: c.issued_at.toISOString(),
			revokedAt: c.revoked_at?.toISOString() ?? null,
			links: {
				credential: `/certificates/${c.public_id}/credential`,
				didDocument: '/.well-known/did.json',
				statusList: `/credentials/status/${c.status_list}`,
			},
		},
		{ headers },
	)
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	return loaderHeaders
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.certificates.verify.metaTitle }]

export default function VerifyCertificate({ loaderData: d }: Route.ComponentProps) {
	const t = useI18n()
	const m = t.m.certificates.verify
	if (d.state === 'not_ours')
		return (
			<section className="narrow">
				<h1>{m.title}</h1>
				<Notice tone="error">
					<strong>{t.format(m.notOurs, { site: d.site })}</strong> {t.format(m.notOursBody, { site: d.site })}
				</Notice>
			</section>
		)
	const values = {
		name: d.recipientName,
		course: d.courseTitle,
		issuer: d.issuerName,
		date: t.day(d.issuedAt),
		site: d.site,
	}
	return (
		<section className="narrow">
			<h1>{m.title}</h1>
			{d.state === 'valid' ? (
				<Notice tone="ok">
					<strong>{m.valid}</strong> {t.format(m.validBody, values)}
				</Notice>
			) : d.state === 'revoked' ? (
				<Notice tone="error">
					<strong>{m.revoked}</strong> {t.format(m.revokedBody, { ...values, date: t.day(d.revokedAt ?? d.issuedAt) })}
				</Notice>
			) : (
				<Notice tone="error">
					<strong>{m.invalid}</strong> {t.format(m.invalidBody, values)}
				</Notice>
			)}
			<h2>{m.how}</h2>
			<p>{t.format(m.howBody, { issuer: d.issuerName, did: d.issuerDid })}</p>
			<ul>
				<li>
					<a href={d.links.credential}>{m.credential}</a>
				</li>
				<li>
					<a href={d.links.didDocument}>{m.didDocument}</a>
				</li>
				<li>
					<a href={d.links.statusList}>{m.statusList}</a>
				</li>
			</ul>
		</section>
	)
}

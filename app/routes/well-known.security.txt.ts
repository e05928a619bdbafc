import { getRequestContext } from '#app/context.ts'
import { securityTxt } from '#app/content/discovery.server.ts'
import { siteDocument } from '#app/content/site.server.ts'
import type { Route } from './+types/well-known.security.txt.ts'

/** RFC 9116; served even for a suspended tenant, so security reports always have a contact. */
export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return new Response(securityTxt(ctx, await siteDocument(ctx)), {
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400' },
	})
}

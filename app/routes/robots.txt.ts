import { getRequestContext } from '#app/context.ts'
import { robotsTxt } from '#app/content/discovery.server.ts'
import type { Route } from './+types/robots.txt.ts'

export function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	return new Response(robotsTxt(new URL(ctx.origin).host), {
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
	})
}

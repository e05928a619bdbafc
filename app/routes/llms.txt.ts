import { getRequestContext } from '#app/context.ts'
import { llmsTxt } from '#app/content/discovery.server.ts'
import type { Route } from './+types/llms.txt.ts'

export async function loader({ context }: Route.LoaderArgs) {
	return new Response(await llmsTxt(getRequestContext(context)), {
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
	})
}

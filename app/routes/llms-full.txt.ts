import { getRequestContext } from '#app/context.ts'
import { llmsFullTxt } from '#app/content/discovery.server.ts'
import type { Route } from './+types/llms-full.txt.ts'

export async function loader({ context }: Route.LoaderArgs) {
	return new Response(await llmsFullTxt(getRequestContext(context)), {
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
	})
}

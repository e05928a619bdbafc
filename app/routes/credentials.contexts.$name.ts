import { CONTEXTS } from '#app/certificates/contexts.server.ts'
import { certificateHost, jsonLd, jsonNotFound } from '#app/certificates/responses.server.ts'
import type { Route } from './+types/credentials.contexts.$name.ts'

/** A JSON-LD context the certificates use, as bundled with the app: a verifier needs nothing but this host. */
export function loader({ context, params }: Route.LoaderArgs) {
	certificateHost(context)
	const found = Object.hasOwn(CONTEXTS, params.name) ? CONTEXTS[params.name] : undefined
	if (!found) return jsonNotFound()
	return jsonLd(JSON.stringify(found.document), 'application/ld+json', 'public, max-age=86400', {
		link: `<${found.url}>; rel="canonical"`,
	})
}

// The committed, generated contract (bundled into the server build at build time).
import document from '../../openapi/openapi.yaml?raw'

export function loader() {
	return new Response(document, {
		headers: { 'content-type': 'application/yaml; charset=utf-8', 'cache-control': 'public, max-age=300' },
	})
}

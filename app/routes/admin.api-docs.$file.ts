import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { requireAdmin } from '#app/admin/admin.server.ts'
import type { Route } from './+types/admin.api-docs.$file.ts'
import { notFound } from '#app/platform/errors.ts'

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const FILES: Record<string, string> = {
	'swagger-ui.css': 'text/css; charset=utf-8',
	'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

// Loads the bundle, then mounts Swagger UI on /openapi.yaml and hides the server-rendered list.
const INIT = `(function () {
	var s = document.createElement('script');
	s.src = '/admin/api-docs/swagger-ui-bundle.js';
	s.onload = function () {
		// Swagger UI draws <main> elements of its own inside the page's <main>: one main landmark per page
		// (issue 40), so each becomes a region named as the page is, whenever Swagger UI draws one.
		var root = document.getElementById('swagger-ui');
		var demote = function () {
			root.querySelectorAll('main:not([role])').forEach(function (el) {
				el.setAttribute('role', 'region');
				el.setAttribute('aria-label', root.getAttribute('data-label') || '');
			});
		};
		new MutationObserver(demote).observe(root, { childList: true, subtree: true });
		window.SwaggerUIBundle({ url: '/openapi.yaml', dom_id: '#swagger-ui', deepLinking: true });
		var fallback = document.getElementById('api-fallback');
		if (fallback) fallback.hidden = true;
	};
	document.head.appendChild(s);
})();
`

/** Swagger UI's files from the installed swagger-ui-dist package (no CDN), for admins only. */
export async function loader({ context, params }: Route.LoaderArgs) {
	requireAdmin(context)
	const headers = { 'cache-control': 'private, max-age=86400' }
	if (params.file === 'init.js')
		return new Response(INIT, { headers: { ...headers, 'content-type': 'text/javascript; charset=utf-8' } })
	// Own keys only: `__proto__` or `constructor` must not reach the file system.
	const type = Object.hasOwn(FILES, params.file) ? FILES[params.file] : undefined
	if (!type) throw notFound()
	const path = join(swaggerDir, params.file)
	const { size } = await stat(path)
	return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream, {
		headers: { ...headers, 'content-type': type, 'content-length': String(size) },
	})
}

import { escapeHtml as esc } from '#app/platform/html.ts'

/**
 * Minimal self-contained pages for answers given before routing (unknown host,
 * suspended tenant, database down). They carry no script and no internals.
 */
export function statusPage(opts: { status: number; title: string; message: string; brand?: string; lang?: string }) {
	const brand = opts.brand ? `<p class="brand">${esc(opts.brand)}</p>` : ''
	const html = `<!doctype html>
<html lang="${esc(opts.lang ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(opts.title)}</title><meta name="robots" content="noindex">
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:0;display:grid;min-height:100vh;place-items:center;background:#f8fafc;color:#0f172a}main{max-width:32rem;padding:2rem}.brand{font-weight:700;color:#1d4ed8}h1{font-size:1.5rem}@media (prefers-color-scheme:dark){body{background:#0f172a;color:#e2e8f0}.brand{color:#93c5fd}}</style>
</head><body><main>${brand}<h1>${esc(opts.title)}</h1><p>${esc(opts.message)}</p></main></body></html>`
	return new Response(html, {
		status: opts.status,
		headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
	})
}

import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { cataloguePartsOf } from './index.ts'

/**
 * The built browser chunks of the message catalogues (`learner-en-<hash>.js`), read once from the
 * client build beside the server build (build/server/index.js → build/client/assets). Outside a
 * build (vite dev, tests of the sources) there are none and pages name none.
 */
let chunks: string[] | undefined
function builtChunks(): string[] {
	if (!chunks) {
		try {
			chunks = readdirSync(fileURLToPath(new URL('../client/assets', import.meta.url)))
		} catch {
			chunks = []
		}
	}
	return chunks
}

/**
 * The catalogue chunks the client entry imports for this page before hydrating (app/entry.client.tsx):
 * the document names them as module preloads, so the browser fetches them beside the runtime
 * instead of after it (one round trip less on a slow link; decision 0076).
 */
export function catalogueModules(locale: string, pathname: string): string[] {
	const files = builtChunks()
	return cataloguePartsOf(pathname).flatMap((part) => {
		const chunk = new RegExp(`^${part}-${locale}-[\\w-]+\\.js$`)
		const file = files.find((f) => chunk.test(f))
		return file ? [`/assets/${file}`] : []
	})
}

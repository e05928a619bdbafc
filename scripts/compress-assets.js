// After `react-router build`: a brotli and a gzip copy beside every text asset
// of build/client, at the top levels (done once per build), for the static
// handler (sirv, `brotli: true, gzip: true` in server/app.ts) to send.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const ROOT = 'build/client'
const TEXT = /\.(?:js|mjs|css|svg|json|txt|html|xml|webmanifest)$/
// Smaller files gain less than the framing costs (the same floor as the server's on-the-fly compression).
const MIN_BYTES = 1024

let files = 0
let before = 0
let after = 0
function walk(dir) {
	for (const name of readdirSync(dir)) {
		const path = join(dir, name)
		if (statSync(path).isDirectory()) walk(path)
		else if (TEXT.test(name)) {
			const body = readFileSync(path)
			if (body.length < MIN_BYTES) continue
			const br = brotliCompressSync(body, {
				params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
			})
			writeFileSync(`${path}.br`, br)
			writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }))
			files++
			before += body.length
			after += br.length
		}
	}
}
walk(ROOT)
console.log(
	`compressed ${files} client assets: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB as brotli`,
)

import { createRequire } from 'node:module'
import type * as QRCodeModule from 'qrcode'

const require = createRequire(import.meta.url)

/**
 * A QR code of `text` as one SVG path (a square per dark module) with a four-module quiet zone,
 * drawn on the server: the certificate page ships no script and prints without one.
 */
export function qrPath(text: string) {
	// Required on first use, not imported at the top: with its PNG reader it is some sixty modules
	// that only a certificate page needs.
	const QRCode = require('qrcode') as typeof QRCodeModule
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
	const quiet = 4
	let d = ''
	for (let y = 0; y < modules.size; y++)
		for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`
	return { size: modules.size + 2 * quiet, d }
}

import QRCode from 'qrcode'

/**
 * A QR code of `text` as one SVG path (a square per dark module) with a four-module quiet zone,
 * drawn on the server: the certificate page ships no script and prints without one.
 */
export function qrPath(text: string) {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
	const quiet = 4
	let d = ''
	for (let y = 0; y < modules.size; y++)
		for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`
	return { size: modules.size + 2 * quiet, d }
}

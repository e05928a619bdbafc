import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

/**
 * A self-signed X.509 certificate for a SAML provider's service-provider key (decision 0077). SAML
 * metadata carries keys as certificates, and node:crypto reads certificates but cannot make one; no
 * library of the project does either, so the few DER structures of RFC 5280 a v1 certificate needs
 * (no extensions: an IdP only takes the public key from it) are written here. Checked by
 * node:crypto's X509Certificate in certificate.server.test.ts.
 */

function tlv(tag: number, content: Buffer) {
	const n = content.length
	const length =
		n < 0x80 ? Buffer.from([n]) : Buffer.concat([Buffer.from([0x80 | byteLength(n)]), uintBytes(n, byteLength(n))])
	return Buffer.concat([Buffer.from([tag]), length, content])
}

const byteLength = (n: number) => Math.max(1, Math.ceil(Math.log2(n + 1) / 8))

function uintBytes(n: number, size: number) {
	const out = Buffer.alloc(size)
	for (let i = size - 1; i >= 0; i--, n = Math.floor(n / 256)) out[i] = n % 256
	return out
}

const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts))
const nullValue = Buffer.from([0x05, 0x00])

function oid(dotted: string) {
	const [a, b, ...rest] = dotted.split('.').map(Number)
	const bytes = [40 * a + b]
	for (const part of rest) {
		const chunk = [part & 0x7f]
		for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f))
		bytes.push(...chunk)
	}
	return tlv(0x06, Buffer.from(bytes))
}

// RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050.
function time(date: Date) {
	const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'
	return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso))
}

const name = (commonName: string) =>
	sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName.slice(0, 64), 'utf8')))))

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), nullValue)

/** A PEM certificate of the key pair, for `commonName`, valid from now for `days`. */
export function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject, commonName: string, days: number) {
	const serial = randomBytes(16)
	serial[0] &= 0x7f // a positive INTEGER
	const now = new Date(Date.now() - 60_000)
	const tbs = sequence(
		tlv(0x02, serial),
		SHA256_WITH_RSA,
		name(commonName),
		sequence(time(now), time(new Date(now.getTime() + days * 86_400_000))),
		name(commonName),
		publicKey.export({ type: 'spki', format: 'der' }),
	)
	const signature = sign('sha256', tbs, privateKey)
	const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])))
	const lines = der.toString('base64').match(/.{1,64}/g) ?? []
	return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
}

/** A new RSA-2048 key pair with its certificate: the private key as PKCS#8 PEM. */
export function newSigningKeyPair(commonName: string, days = 3650) {
	const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
	return {
		certificate: selfSignedCertificate(privateKey, publicKey, commonName, days),
		privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
	}
}

import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { newSigningKeyPair } from './certificate.server.ts'

describe('the SAML service provider’s self-signed certificate', () => {
	it('is a certificate node:crypto reads, of the key pair, signed by it, valid now', () => {
		const { certificate, privateKey } = newSigningKeyPair('acme.localhost SAML sp')
		const cert = new X509Certificate(certificate)
		expect(cert.subject).toBe('CN=acme.localhost SAML sp')
		expect(cert.issuer).toBe(cert.subject)
		const publicKey = createPublicKey(createPrivateKey(privateKey))
		expect(cert.publicKey.export({ type: 'spki', format: 'pem' })).toBe(
			publicKey.export({ type: 'spki', format: 'pem' }),
		)
		expect(cert.verify(publicKey)).toBe(true)
		expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(Date.now())
		expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86_400_000)
	})
})

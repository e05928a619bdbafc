import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { AuditInput } from '#db/audit.ts'
import { courseCertificate, revokeCertificateSteps, type Certificate } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import type { Scope } from '#db/learning.ts'
import { findUserById } from '#db/users.ts'
import { findTenantById } from '#db/tenants.ts'
import { learnerPasses } from '#db/course-results.ts'
import type { Tx } from '#db/transaction.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Course } from '#app/content/content.ts'
import { composeEmail, deliver, type MailContext } from '#app/platform/emails.server.ts'
import { CERTIFICATE_EMAILS } from './emails.ts'
import { absoluteUrl } from '#app/platform/forms.server.ts'
import { recipientMailContext, siteName } from '#app/content/site.server.ts'
import { jobSite, type JobDeps, type JobSite } from '#app/platform/jobs.server.ts'
import { certificateJobs, type CertificateJobPayloads } from './jobs.server.ts'
import type { Locale } from '#db/schema/values.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { issueCertificate } from './issue.server.ts'

/**
 * Called after the commit of a write that made the course passed (its course result, decision
 * 0037, settled in that write's transaction says `newlyPassed`): issues the learner's certificate
 * when the course gives one, and mails it to them (a job written with it). Not inside the write's
 * transaction: signing is asynchronous and SQLite's transactions are not. A certificate that cannot
 * be issued now is logged and never fails the write that earned it: the job that write left
 * (owedCertificateSteps) issues it, retried until it is stored (decision 0059).
 */
export async function awardCertificate(
	ctx: RequestContext,
	scope: Scope,
	course: Course,
	settled: { newlyPassed: boolean },
) {
	const tenant = ctx.tenant
	if (!settled.newlyPassed || !course.certificate?.enabled || !tenant) return
	try {
		const learner = await findUserById(ctx.db, scope.userId)
		if (!learner) return
		await issueCertificate(ctx.db, {
			tenant,
			userId: scope.userId,
			course: await courseIn(ctx, course, learner.locale),
			origin: ctx.origin,
			baseDomain: ctx.env.APP_BASE_DOMAIN,
			authSecret: ctx.env.AUTH_SECRET,
			mail: jobSite(ctx),
		})
	} catch (error) {
		log.warn('certificates/issue_failed', {
			courseSlug: course.slug,
			userId: scope.userId,
			error: describeError(error),
		})
	}
}

/**
 * A step of the transaction that made the course passed: the certificate it earned is owed, as a job
 * written with the pass. The request issues it after its commit (awardCertificate); when that failed
 * (the database refused a write of it, the process stopped), the job does, with the queue's retries.
 */
export function* owedCertificateSteps(tx: Tx, site: JobSite, scope: Scope, course: Course, newlyPassed: boolean) {
	if (!newlyPassed || !course.certificate?.enabled) return
	yield* certificateJobs.enqueueSteps(tx, 'certificates.issue', {
		...site,
		tenantId: scope.tenantId,
		userId: scope.userId,
		courseSlug: course.slug,
		passedAt: new Date().toISOString(),
	})
}

/** What the issuing job reads of the settings: the DID's domain and the signing keys' secret. */
export type CertificateEnv = Pick<Env, 'APP_BASE_DOMAIN' | 'AUTH_SECRET'>

/**
 * The job's issuance of an owed certificate: nothing when it is there already (the request issued
 * it), the course is no longer passed or gives none, or the learner or tenant is gone; the note says
 * which. A failure throws, and the queue tries again.
 */
export async function issueOwedCertificate(
	deps: JobDeps & { env: CertificateEnv },
	job: CertificateJobPayloads['certificates.issue'],
) {
	const tenant = await findTenantById(deps.db, job.tenantId)
	const learner = await findUserById(deps.db, job.userId)
	if (!tenant || !learner || learner.tenant_id !== tenant.id) return 'the learner or the tenant is gone'
	const scope = { tenantId: tenant.id, userId: learner.id }
	if (!(await learnerPasses(deps.db, scope)).get(job.courseSlug)?.passed) return 'the course is no longer passed'
	// The request issued it and staff revoked it before this job ran: a revocation is not undone by the queue.
	// Asked where the certificate would be stored (noneIssuedSince), so a revocation landing while the job
	// runs is seen too.
	const since = job.passedAt ? new Date(job.passedAt) : new Date(0)
	const course = await deps.cms.course(tenant.slug, job.courseSlug, learner.locale)
	if (!course?.certificate?.enabled) return 'the course gives no certificate'
	const result = await issueCertificate(deps.db, {
		tenant,
		userId: learner.id,
		course,
		origin: job.origin,
		baseDomain: deps.env.APP_BASE_DOMAIN,
		authSecret: deps.env.AUTH_SECRET,
		mail: { origin: job.origin, tenantId: tenant.id, locale: job.locale },
		noneIssuedSince: since,
	})
	if (!result) return 'the course gives no certificate'
	if (result.issued) return
	return result.certificate.revoked_at ? 'issued and revoked since the pass' : 'issued already'
}

/** The job's mail: the learner is told, in their locale, that their certificate is ready, with a link to its page. */
export async function mailCertificate(ctx: MailContext, job: CertificateJobPayloads['mail.certificateIssued']) {
	const certificate = await courseCertificate(ctx.db, job.tenantId, job.courseSlug, job.certificateId)
	if (!certificate || certificate.revoked_at) return 'the certificate is gone or revoked'
	const learner = await findUserById(ctx.db, certificate.user_id)
	if (!learner || learner.deactivated_at) return 'the learner is gone or deactivated'
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail(CERTIFICATE_EMAILS, {
			kind: 'certificate_issued',
			to: learner.email,
			locale: learner.locale,
			site: await siteName(to, learner.locale),
			url: absoluteUrl(to, localePath(learner.locale, `/learn/certificates/${certificate.public_id}`)),
			values: { course: certificate.course_title },
		}),
	)
}

/** The course in the learner's language for the certificate; the one at hand when the content service fails. */
async function courseIn(ctx: RequestContext, course: Course, locale: Locale): Promise<Course> {
	if (locale === ctx.locale) return course
	try {
		return (await ctx.cms.course(ctx.site, course.slug, locale)) ?? course
	} catch {
		return course
	}
}

/**
 * An admin's revocation: the certificate's revocation bit (the status list reads it) and the audit
 * row, in one transaction. False when it was no longer live.
 */
export async function revokeByAdmin(
	db: Database,
	certificate: Certificate,
	reason: string,
	by: string,
	audit: AuditInput,
) {
	const revoked = await inTransaction(db, (tx) =>
		revokeCertificateSteps(tx, { tenantId: certificate.tenant_id, id: certificate.id }, reason, by, audit),
	)
	return Boolean(revoked)
}

/**
 * After a name change: a new certificate in the learner's current name (and the course in their
 * language), stored in the transaction that revokes the old one with reason "reissued" and writes the
 * audit row; the learner is mailed the new one (a job written with it). False when the old one was no longer live.
 */
export async function reissueCertificate(
	ctx: RequestContext,
	tenant: Tenant,
	course: Course,
	old: Certificate,
	by: { by: string; audit: AuditInput },
) {
	const learner = await findUserById(ctx.db, old.user_id)
	if (!learner) return false
	const result = await issueCertificate(ctx.db, {
		tenant,
		userId: old.user_id,
		course: await courseIn(ctx, course, learner.locale),
		origin: ctx.origin,
		baseDomain: ctx.env.APP_BASE_DOMAIN,
		authSecret: ctx.env.AUTH_SECRET,
		replacing: { certificate: old, ...by },
		mail: jobSite(ctx),
	})
	return Boolean(result?.issued)
}

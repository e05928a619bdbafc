import type { RequestContext } from '#app/context.ts'
import { localePath } from '#app/i18n/locales.ts'
import type { AuditInput } from '#db/audit.ts'
import { courseCertificate, revokeCertificateSteps, type Certificate } from '#db/certificates.ts'
import type { Database } from '#db/client.ts'
import type { Tenant } from '#db/tenants.ts'
import { inTransaction } from '#db/transaction.ts'
import type { Scope } from '#db/learning.ts'
import { findUserById } from '#db/users.ts'
import type { Course } from '#app/content/content.ts'
import { composeEmail, deliver, type MailContext } from '#app/platform/emails.server.ts'
import { absoluteUrl } from '#app/platform/forms.server.ts'
import { recipientMailContext, siteName } from '#app/content/site.server.ts'
import { jobSite } from '#app/platform/jobs.server.ts'
import type { CertificateJobPayloads } from './jobs.server.ts'
import type { Locale } from '#db/schema/values.ts'
import { describeError, log } from '#app/platform/log.server.ts'
import { issueCertificate } from './issue.server.ts'

/**
 * Called after the commit of a write that made the course passed (its course result, decision
 * 0037, settled in that write's transaction says `newlyPassed`): issues the learner's certificate
 * when the course gives one, and mails it to them (a job written with it). Not inside the write's
 * transaction: signing is asynchronous and SQLite's transactions are not. A certificate that cannot
 * be issued now is logged and left to an admin's reissue: it never fails the write that earned it.
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

/** The job's mail: the learner is told, in their locale, that their certificate is ready, with a link to its page. */
export async function mailCertificate(ctx: MailContext, job: CertificateJobPayloads['mail.certificateIssued']) {
	const certificate = await courseCertificate(ctx.db, job.tenantId, job.courseSlug, job.certificateId)
	if (!certificate || certificate.revoked_at) return 'the certificate is gone or revoked'
	const learner = await findUserById(ctx.db, certificate.user_id)
	if (!learner || learner.deactivated_at) return 'the learner is gone or deactivated'
	const to = await recipientMailContext(ctx, learner.id)
	await deliver(
		to,
		composeEmail({
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

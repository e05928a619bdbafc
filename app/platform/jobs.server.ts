import type { RequestContext } from '#app/context.ts'
import { log } from './log.server.ts'
import type { Mailer } from './mailer.server.ts'
import type { Env } from './env.server.ts'
import type { Database } from '#db/client.ts'
import { sendMailOnce } from '#db/job-mails.ts'
import { enqueueJobSteps, enqueueJobsSteps } from '#db/jobs.ts'
import type { Locale } from '#db/schema/values.ts'
import { inTransaction, type Tx } from '#db/transaction.ts'

/*
 * The app's one way to leave work for later (docs/decisions/0033-job-queue.md): a job, written in
 * the transaction of the change it follows, run by the worker of some app process (server/queue.ts)
 * with retries. Payloads carry ids and addresses, never a secret: a mail's token is issued by its
 * handler when it sends. This module knows no kind of job: each room declares its jobs' payloads
 * (app/<room>/jobs.server.ts) and handlers (app/<room>/job-handlers.server.ts), and app/jobs.server.ts
 * joins them into the runner, so the bottom room imports none above it (issue 50).
 */

/** Where a job's mail points and in which language: the host's origin, its tenant, the request's locale. */
export interface JobSite {
	origin: string
	tenantId: string | null
	locale: Locale
}

/** One room's queue: `enqueueSteps` and `enqueue` typed by the room's map of job names to payloads. */
export function jobQueue<Payloads extends object>() {
	type Name = keyof Payloads & string
	/** One job as a step of the caller's transaction. */
	function enqueueSteps<N extends Name>(tx: Tx, name: N, payload: Payloads[N]) {
		return enqueueJobSteps(tx, name, payload as Record<string, unknown>)
	}
	/** Jobs of one kind, one per payload, as one step of the caller's transaction. */
	function enqueueManySteps<N extends Name>(tx: Tx, name: N, payloads: Array<Payloads[N]>) {
		return enqueueJobsSteps(tx, name, payloads as Array<Record<string, unknown>>)
	}
	/** One job, when it is the only write of the action. */
	function enqueue<N extends Name>(db: Database, name: N, payload: Payloads[N]) {
		return inTransaction(db, (tx) => enqueueSteps(tx, name, payload))
	}
	return { enqueueSteps, enqueueManySteps, enqueue }
}

/**
 * What handlers run with: the app's database, content client and mailer, and the base domain a
 * mail's host is chosen with (the top adds what some rooms need).
 */
export type JobDeps = Pick<RequestContext, 'db' | 'cms'> & { mailer: Mailer; env: Pick<Env, 'APP_BASE_DOMAIN'> }

/**
 * A handler may answer a note for the log: why it sent nothing (no such account, opted out), or
 * what it did besides mail (a fan-out's jobs). The runner logs it with the mails the attempt sent.
 */
type JobHandler<Deps, Payload> = (deps: Deps, job: Payload) => Promise<string | void>

/** A room's handlers: one per kind of job it declares. */
export type JobHandlers<Deps, Payloads> = { [N in keyof Payloads]: JobHandler<Deps, Payloads[N]> }

/** One attempt of a job, as the worker (server/queue.ts) hands it to the runner. */
export interface JobAttempt {
	id: string
	name: string
	payload: Record<string, unknown>
	/** 1 for the first attempt. */
	attempt: number
}

/**
 * The worker's runner: the attempt's handler by its name. Each attempt logs what it did (`job/done`
 * with the mails a transport accepted, and the handler's note: why it sent none), so an
 * operator tells a mail job that had nobody to tell from one whose mail was lost.
 */
export function jobRunner<Deps extends JobDeps, Payloads>(handlers: JobHandlers<Deps, Payloads>, deps: Deps) {
	const byName = handlers as Record<string, JobHandler<Deps, unknown> | undefined>
	return async (job: JobAttempt) => {
		const handler = Object.hasOwn(byName, job.name) ? byName[job.name] : undefined
		// A job of a kind this build does not know (written by a newer one): failed, so it is retried by another process.
		if (!handler) throw new Error(`no handler for job ${job.name}`)
		let mails = 0
		let seq = 0
		// Each mail once across the job's attempts (decision 0058): keyed by the job and its place among
		// the job's mails, so a retry or a stale attempt skips what an earlier attempt sent.
		const mailer: Mailer = {
			...deps.mailer,
			send: async (email) => {
				const key = { jobId: job.id, seq: seq++ }
				const outcome = await sendMailOnce(deps.db, key, () =>
					deps.mailer.send({ ...email, key: `${job.id}.${key.seq}` }),
				)
				if (outcome === 'already-sent') {
					log.info('email/already-sent', { job: job.name, id: job.id, seq: key.seq, kind: email.kind })
					return true
				}
				if (outcome === 'sent') mails++
				return outcome === 'sent'
			},
		}
		const note = await handler({ ...deps, mailer }, job.payload)
		log.info('job/done', { job: job.name, id: job.id, mails, ...(note ? { note } : {}) })
	}
}

/** The request's site for a job. */
export function jobSite(ctx: Pick<RequestContext, 'origin' | 'tenant' | 'locale'>): JobSite {
	return { origin: ctx.origin, tenantId: ctx.tenant?.id ?? null, locale: ctx.locale }
}

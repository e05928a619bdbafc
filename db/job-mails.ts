import { and, eq } from 'drizzle-orm'
import type { Database } from './client.ts'
import { runSteps, step } from './transaction.ts'

/*
 * A job's mails sent once across its attempts (docs/decisions/0058-job-mails-once.md). The queue runs
 * a job at least once: a retry after a killed process, or the stale attempt of a process frozen past
 * the job timeout whose job another process has taken meanwhile. Each mail an attempt is about to
 * send is keyed by its job and its place among the job's mails (`seq`) in `job_mails`.
 */

/** What became of one mail: handed to a transport, refused by every transport, or sent by an earlier attempt. */
export type MailOnce = 'sent' | 'refused' | 'already-sent'

/** A transport refusing the mail: the key's row is rolled back with it, so a retry sends the mail. */
class Refused extends Error {}

/**
 * Runs `send` for the job's `seq`-th mail unless an attempt of the job sent it already.
 *
 * PostgreSQL (several processes): the key is inserted, the mail sent and the insert committed in one
 * transaction. Another attempt of the same job inserting the key meanwhile waits on it (and fails its
 * attempt after the 3 s lock timeout, to be retried): when this one commits, it finds the key; when
 * this one rolls back (refused, or its process died), it sends. What stays at least once is a mail the
 * SMTP server accepted whose commit then failed (the database gone at that instant).
 *
 * SQLite (one process, one attempt at a time): looked up before, recorded after the send.
 */
export async function sendMailOnce(
	db: Database,
	key: { jobId: string; seq: number },
	send: () => Promise<boolean>,
): Promise<MailOnce> {
	const m = db.t.job_mails
	const row = { job_id: key.jobId, seq: key.seq }
	if (db.dialect === 'pg') {
		try {
			return await db.orm.transaction(async (tx) => {
				const claimed = await tx.insert(m).values(row).onConflictDoNothing().returning({ seq: m.seq })
				if (claimed.length === 0) return 'already-sent'
				if (!(await send())) throw new Refused()
				return 'sent'
			})
		} catch (error) {
			if (error instanceof Refused) return 'refused'
			throw error
		}
	}
	const found = await runSteps(db, function* (tx) {
		return yield* step(
			tx.orm
				.select({ seq: m.seq })
				.from(m)
				.where(and(eq(m.job_id, key.jobId), eq(m.seq, key.seq))),
		)
	})
	if (found.length > 0) return 'already-sent'
	if (!(await send())) return 'refused'
	await runSteps(db, function* (tx) {
		return yield* step(tx.orm.insert(m).values(row).onConflictDoNothing().returning({ seq: m.seq }))
	})
	return 'sent'
}

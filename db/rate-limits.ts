import { and, eq, gt, lt, sql } from 'drizzle-orm'
import type { Database } from './client.ts'

/**
 * One hit on a fixed window kept in the database (decision 0035), in one statement: the first hit
 * (or the first after the window ended) starts a window of `windowMs`, later ones count. Concurrent
 * hits from any number of processes count exactly (the upsert takes the row's lock). Answers the
 * count with this hit and the milliseconds the window has left.
 */
export async function hitWindow(db: Database, key: string, windowMs: number): Promise<[number, number]> {
	const t = db.t.rate_limit_windows
	const now = Date.now()
	const [row] = await db.orm
		.insert(t)
		.values({ key, count: 1, expires_at_ms: now + windowMs })
		.onConflictDoUpdate({
			target: t.key,
			set: {
				count: sql`case when ${t.expires_at_ms} <= ${now} then 1 else ${t.count} + 1 end`,
				expires_at_ms: sql`case when ${t.expires_at_ms} <= ${now} then ${now + windowMs} else ${t.expires_at_ms} end`,
			},
		})
		.returning()
	// Ended windows are never read again; one hit in a hundred clears them, so the table stays the size of the live ones.
	if (Math.random() < 0.01) await db.orm.delete(t).where(lt(t.expires_at_ms, now))
	return [row.count, row.expires_at_ms - now]
}

/** Takes one hit back from a live window (an attempt that failed for our reasons, not the client's). */
export async function unhitWindow(db: Database, key: string) {
	const t = db.t.rate_limit_windows
	await db.orm
		.update(t)
		.set({ count: sql`${t.count} - 1` })
		.where(and(eq(t.key, key), gt(t.count, 0), gt(t.expires_at_ms, Date.now())))
		.returning()
}

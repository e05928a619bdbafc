import { mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import Sqlite from 'better-sqlite3'
import { and, eq } from 'drizzle-orm'
import postgres from 'postgres'
import type { Database } from '#db/client.ts'
import { putEnrollment } from '#db/learning.ts'
import type { AppProcess } from '#tests/support/process.ts'
import { createUser } from '#tests/support/repository.ts'

/** One answer as the fault suite records it. */
export interface Answer {
	kind: string
	at: number
	ms: number
	status: number
	location?: string
	body: string
	headers: Record<string, string | string[] | undefined>
}

/**
 * Sends requests and remembers every answer, with when it started and how
 * long it took, so a case can ask what happened during and after a fault.
 */
export function recorder(port: number, host: string) {
	const answers: Answer[] = []
	const started = Date.now()
	const agent = new Agent({ keepAlive: true, maxSockets: 64 })
	function send(
		kind: string,
		method: string,
		path: string,
		init: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
	) {
		const body = init.form ? new URLSearchParams(init.form).toString() : undefined
		const headers: Record<string, string> = { host: `${host}:${port}`, ...init.headers }
		if (init.cookie) headers.cookie = init.cookie
		if (body !== undefined)
			Object.assign(headers, {
				'content-type': 'application/x-www-form-urlencoded',
				'content-length': String(Buffer.byteLength(body)),
				origin: `http://${host}:${port}`,
			})
		const at = Date.now()
		return new Promise<Answer>((resolve) => {
			const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => {
					const answer: Answer = {
						kind,
						at: at - started,
						ms: Date.now() - at,
						status: res.statusCode ?? 0,
						location: res.headers.location,
						body: Buffer.concat(chunks).toString('utf8'),
						headers: res.headers,
					}
					answers.push(answer)
					resolve(answer)
				})
			})
			// A connection error is an answer too (status 0): the suite counts it as a failure.
			req.on('error', (error) => {
				const answer: Answer = {
					kind,
					at: at - started,
					ms: Date.now() - at,
					status: 0,
					body: String(error),
					headers: {},
				}
				answers.push(answer)
				resolve(answer)
			})
			req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')))
			if (body !== undefined) req.write(body)
			req.end()
		})
	}
	return { send, answers, now: () => Date.now() - started, close: () => agent.destroy() }
}

/** Statuses counted: `200:12 302:4 503:7`. */
export function statusCounts(answers: Answer[]) {
	const counts = new Map<number, number>()
	for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1)
	return [...counts]
		.sort(([a], [b]) => a - b)
		.map(([s, n]) => `${s}:${n}`)
		.join(' ')
}

/**
 * The columns every fault fills where they apply (issue 46's table): requests sent, writes the app
 * acknowledged, acknowledged writes found stored afterwards, answers that failed although their
 * write was stored, the slowest answer, and how long after the fault ended service was full again.
 */
export interface FaultRow {
	requests?: number
	acknowledged?: number
	found?: number
	failedButStored?: number
	slowestMs?: number
	recoveryMs?: number
}

/**
 * The suite's line per fault, in the log and in .tmp/faults/ (scripts/test-summary.js prints the
 * rows as one table, then each fault's own figures).
 */
export function reportFault(
	name: string,
	dialect: string,
	figures: Record<string, string | number>,
	row: FaultRow = {},
) {
	const line = `fault ${name} (${dialect}): ${Object.entries(figures)
		.map(([k, v]) => `${k} ${v}`)
		.join(', ')}`
	console.log(line)
	mkdirSync('.tmp/faults', { recursive: true })
	writeFileSync(
		`.tmp/faults/${name.replace(/\W+/g, '-')}.${dialect}.json`,
		JSON.stringify({ name, dialect, row, line }),
	)
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * PostgreSQL: another connection takes `table`'s EXCLUSIVE lock (reads go on, writes wait) and holds
 * it until the returned function is called; the app's writes give up after their 3 s lock timeout.
 */
export async function holdPgLock(db: Database, table: string) {
	const other = postgres(db.url, { max: 1, onnotice: () => {} })
	const holder = await other.reserve()
	await holder`begin`
	await holder.unsafe(`lock table ${table} in exclusive mode`)
	return async () => {
		await holder`rollback`
		holder.release()
		await other.end()
	}
}

/**
 * SQLite: another connection to the file opens a write transaction and holds it until the returned
 * function is called; the app's writes give up after their 5 s busy timeout (reads go on, WAL).
 */
export function holdSqliteWriteLock(db: Database) {
	const other = new Sqlite(db.url.replace(/^(file|sqlite):(\/\/)?/, ''))
	other.exec('BEGIN IMMEDIATE')
	return () => {
		other.exec('ROLLBACK')
		other.close()
	}
}

/** The structured log lines of an app process with this event (its fields parsed). */
export function logLines(app: AppProcess, event: string) {
	return app.output
		.join('')
		.split('\n')
		.filter((line) => line.includes(`"event":"${event}"`))
		.map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>)
}

/** Waits for `probe` to answer something truthy and returns it; throws after `timeoutMs`. */
export async function until<T>(
	what: string,
	timeoutMs: number,
	probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const value = await probe()
		if (value) return value
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
		await sleep(25)
	}
}

const REMINDED_COURSE = 'intro-to-web'
const DAY_MS = 86_400_000

/**
 * `count` learners of the tenant, each enrolled in intro-to-web 8 days ago at a distinct moment and
 * idle since: each is due one inactivity reminder (decision 0047), whose item key is `key`.
 */
export async function inactiveLearners(db: Database, tenantId: string, count: number, prefix: string) {
	const learners: Array<{ id: string; email: string; key: string }> = []
	for (let i = 0; i < count; i++) {
		const email = `${prefix}-${i}@acme.test`
		const user = await createUser(db, {
			tenant_id: tenantId,
			email,
			name: `Idle ${i}`,
			role: 'student',
			email_verified_at: new Date(),
		})
		await putEnrollment(db, { tenantId, userId: user.id }, REMINDED_COURSE, 'active')
		const at = new Date(Date.now() - 8 * DAY_MS - i * 1000)
		const e = db.t.enrollments
		await db.orm
			.update(e)
			.set({ enrolled_at: at })
			.where(and(eq(e.user_id, user.id), eq(e.tenant_id, tenantId)))
		learners.push({ id: user.id, email, key: `${REMINDED_COURSE}@${at.getTime()}` })
	}
	return learners
}

/**
 * PostgreSQL: another connection inserts a learner's inactivity reminder key (reminders_sent) in a
 * transaction it holds open until the returned function rolls it back: a sweep reaching that key
 * waits on it (up to its 3 s lock timeout), having queued the learners before it (user id order).
 */
export async function holdReminderKey(db: Database, tenantId: string, learner: { id: string; key: string }) {
	const other = postgres(db.url, { max: 1, onnotice: () => {} })
	const holder = await other.reserve()
	await holder`begin`
	await holder`insert into reminders_sent (tenant_id, user_id, kind, item_key) values (${tenantId}, ${learner.id}, 'inactivity', ${learner.key})`
	return async () => {
		await holder`rollback`
		holder.release()
		await other.end()
	}
}

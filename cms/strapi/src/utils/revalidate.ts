/**
 * Revalidation webhooks: every change to content the app caches sends
 * `POST <app>/api/cms/revalidate` with the exact tags (course:<slug>, entry:<course>:<entry>,
 * site:<host>, cms:page-hierarchy) and the shared secret, to every app URL in LMS_APP_URLS.
 *
 * Why not Strapi's own webhooks: their body is fixed (the event and the entry), the app wants
 * tags. Nothing is lost between authoring and learners: a change's tags are stored, one row per
 * app, in a table of Strapi's own database (in the change's transaction when it has one), and a
 * row goes only once its app has answered 200. Sending happens after the commit and after the
 * author's request is answered; an app that is down or busy (5xx, 429, no answer) is asked again
 * with backoff (at most a minute apart) until it answers, across restarts of Strapi. Rows due
 * together for one app, at the same attempt, go out in one request (at most MAX_TAGS tags).
 * The sender is api::content.revalidation's; it takes Strapi's database, not Strapi, so that
 * tests/authoring/revalidate-queue.test.ts runs it on a knex of its own.
 */
import type { Core } from '@strapi/strapi'

type Knex = Core.Strapi['db']['connection']
type Row = { id: number; url: string; tags: string; attempts: number; due_at: number | string }
type Log = { warn(message: string): void; error(message: string): void }
/** Strapi's database, or `{ connection: knex }` alone (then never in a transaction). */
type Db = {
	connection: Knex
	inTransaction?: () => boolean
	transaction?: (work: (store: { trx: Knex }) => Promise<unknown>) => Promise<unknown>
}

export const TABLE = 'lms_revalidations'
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 60000]
const BATCH_MS = 20
const MAX_TAGS = 100

const why = (error: unknown) => (error as { message?: unknown } | null | undefined)?.message ?? error

/** The queue's table, made if missing (Strapi leaves alone a table it did not make). */
async function ensureTable(knex: Knex) {
	if (await knex.schema.hasTable(TABLE)) return
	await knex.schema.createTable(TABLE, (t) => {
		t.increments('id')
		t.string('url', 2000).notNullable()
		t.text('tags').notNullable()
		t.integer('attempts').notNullable().defaultTo(0)
		t.bigInteger('due_at').notNullable()
		t.index(['due_at'])
	})
}

type Options = {
	urls: string[]
	secret: string
	log: Log
	db: Db
	fetchImpl?: typeof fetch
	delaysMs?: number[]
}

/**
 * `db`: Strapi's database (`connection`, `inTransaction`, `transaction`), or `{ connection: knex }`.
 * `delaysMs`: the pauses between attempts; the last one repeats until the app answers.
 */
export function createRevalidator(options: Options) {
	return new Revalidator(options)
}

class Revalidator {
	private readonly urls: string[]
	private readonly secret: string
	private readonly log: Log
	private readonly db: Db
	private readonly fetchImpl: typeof fetch
	private readonly delaysMs: number[]
	private readonly busy = new Set<string>()
	private timer: ReturnType<typeof setTimeout> | null = null
	private timerAt = Infinity
	private stopped = false
	private running: Promise<void> | null = null

	constructor({ urls, secret, log, db, fetchImpl = fetch, delaysMs = RETRY_DELAYS_MS }: Options) {
		this.urls = urls
		this.secret = secret
		this.log = log
		this.db = db
		this.fetchImpl = fetchImpl
		this.delaysMs = delaysMs
	}

	private knex() {
		return this.db.connection
	}

	private lastDelay() {
		return this.delaysMs[this.delaysMs.length - 1]
	}

	/** Stores the tags for every app; in the caller's transaction when there is one (then committed with it). */
	async record(tags: string[]) {
		if (!this.urls.length || !tags.length) return
		const rows: Omit<Row, 'id'>[] = []
		for (const url of this.urls)
			for (let i = 0; i < tags.length; i += MAX_TAGS)
				rows.push({ url, tags: JSON.stringify(tags.slice(i, i + MAX_TAGS)), attempts: 0, due_at: Date.now() })
		if (this.db.inTransaction?.()) await this.db.transaction!(({ trx }) => trx(TABLE).insert(rows))
		else await this.knex()(TABLE).insert(rows)
	}

	/** After a commit: send what is stored (changes close together go out together). */
	kick() {
		this.schedule(BATCH_MS)
	}

	/** At boot: makes the table, and sends what an earlier run left (rows of apps no longer listed are kept). */
	async start() {
		await ensureTable(this.knex())
		const [{ n }] = await this.knex()(TABLE)
			.whereNotIn('url', this.urls.length ? this.urls : [''])
			.count('* as n')
		if (Number(n)) this.log.warn(`[revalidate] ${n} stored webhook(s) for apps not in LMS_APP_URLS: kept, not sent`)
		this.schedule(0)
	}

	stop() {
		this.stopped = true
		clearTimeout(this.timer ?? undefined)
	}

	/** Runs a pass in `ms` (or sooner if one is already set for sooner). */
	private schedule(ms: number) {
		if (this.stopped) return
		const at = Date.now() + Math.max(0, ms)
		if (this.timer && this.timerAt <= at) return
		clearTimeout(this.timer ?? undefined)
		this.timerAt = at
		this.timer = setTimeout(() => {
			this.timer = null
			this.timerAt = Infinity
			// One pass at a time: two would both read the same rows as due and send them twice.
			if (this.running) return void this.running.then(() => this.schedule(0))
			this.running = this.pass()
				.catch((error) => {
					this.log.error(`[revalidate] ${why(error)}; again in ${this.lastDelay()} ms`)
					this.schedule(this.lastDelay())
				})
				.finally(() => (this.running = null))
		}, at - Date.now())
		this.timer.unref?.()
	}

	/** Sends each idle app its due rows, and sets the next pass for the earliest row still waiting. */
	private async pass() {
		const idle = this.urls.filter((url) => !this.busy.has(url))
		if (!idle.length) return
		// New changes first, and never in one request with retried ones: rows that failed together
		// (the same attempt count) go together, so a fresh change's request carries its own tags only.
		const due: Row[] = await this.knex()(TABLE)
			.whereIn('url', idle)
			.where('due_at', '<=', Date.now())
			.orderBy([{ column: 'attempts' }, { column: 'id' }])
		for (const url of idle) {
			const batch: Row[] = []
			const tags = new Set<string>()
			const rows = due.filter((r) => r.url === url)
			for (const row of rows.filter((r) => r.attempts === rows[0].attempts)) {
				const more = (JSON.parse(row.tags) as string[]).filter((t) => !tags.has(t))
				if (batch.length && tags.size + more.length > MAX_TAGS) break
				batch.push(row)
				more.forEach((t) => tags.add(t))
			}
			if (batch.length) this.send(url, batch, [...tags])
		}
		const waiting = this.urls.filter((url) => !this.busy.has(url))
		const [next]: { at: unknown }[] = waiting.length
			? await this.knex()(TABLE).whereIn('url', waiting).min('due_at as at')
			: []
		if (next?.at !== null && next?.at !== undefined) this.schedule(Number(next.at) - Date.now())
	}

	private send(url: string, rows: Row[], tags: string[]) {
		this.busy.add(url)
		this.deliver(url, rows, tags)
			.catch((error) => this.log.error(`[revalidate] ${url}: ${why(error)}`))
			.finally(() => {
				this.busy.delete(url)
				this.schedule(0)
			})
	}

	private async deliver(url: string, rows: Row[], tags: string[]) {
		let outcome: number | string
		let retryAfterMs = 0
		try {
			const res = await this.fetchImpl(new URL('/api/cms/revalidate', url), {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-cms-webhook-secret': this.secret },
				body: JSON.stringify({ tags }),
				signal: AbortSignal.timeout(5000),
			})
			outcome = res.status
			retryAfterMs = Number(res.headers.get('retry-after')) * 1000 || 0
			await res.body?.cancel()
		} catch (error) {
			outcome = (error as { name?: string } | null | undefined)?.name ?? 'error'
		}
		const ids = rows.map((r) => r.id)
		if (outcome === 200) return this.knex()(TABLE).whereIn('id', ids).del()
		// A 4xx other than 429 will not change on its own (a wrong secret, a tag the app refuses): say so, stop.
		if (typeof outcome === 'number' && outcome < 500 && outcome !== 429) {
			this.log.error(`[revalidate] ${url} answered ${outcome} to ${tags.length} tag(s); not retried`)
			return this.knex()(TABLE).whereIn('id', ids).del()
		}
		const attempts = Math.max(...rows.map((r) => r.attempts)) + 1
		const delay = Math.max(this.delaysMs[Math.min(attempts, this.delaysMs.length) - 1], retryAfterMs)
		this.log.warn(`[revalidate] ${url}: ${outcome} (attempt ${attempts}); again in ${delay} ms`)
		await this.knex()(TABLE)
			.whereIn('id', ids)
			.update({ attempts, due_at: Date.now() + delay })
	}
}

/** One stored version of a document, as far as its tags go. */
export type Tagged = {
	slug?: string | null
	key?: string | null
	modules?: { entries?: { slug?: string | null }[] | null }[] | null
}

/** The host a site's pages are served on: its subdomain of APP_BASE_DOMAIN, the apex for `_apex`. */
export const siteHost = (key: unknown, baseDomain: string) => (key === '_apex' ? baseDomain : `${key}.${baseDomain}`)

/** The tags one version of a document moves in the app's caches. */
export function tagsOf(uid: string, doc: Tagged | null | undefined, baseDomain: string): string[] {
	if (!doc) return []
	if (uid === 'api::course.course') {
		const entries = (doc.modules ?? []).flatMap((m) => (m.entries ?? []).map((e) => `entry:${doc.slug}:${e.slug}`))
		return [`course:${doc.slug}`, ...entries]
	}
	if (uid === 'api::site.site') return [`site:${siteHost(doc.key, baseDomain)}`]
	if (uid === 'api::page.page' || uid === 'api::blog-post.blog-post') return ['cms:page-hierarchy']
	return []
}

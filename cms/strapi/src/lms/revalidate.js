'use strict'
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
 */

const TABLE = 'lms_revalidations'
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 60000]
const BATCH_MS = 20
const MAX_TAGS = 100

/** The queue's table, made if missing (Strapi leaves alone a table it did not make). */
async function ensureTable(knex) {
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

/**
 * `db`: Strapi's database (`connection`, `inTransaction`, `transaction`), or `{ connection: knex }`.
 * `delaysMs`: the pauses between attempts; the last one repeats until the app answers.
 */
function createRevalidator({ urls, secret, log, db, fetchImpl = fetch, delaysMs = RETRY_DELAYS_MS }) {
	const knex = () => db.connection
	const busy = new Set()
	let timer = null
	let timerAt = Infinity
	let stopped = false
	let running = null

	/** Stores the tags for every app; in the caller's transaction when there is one (then committed with it). */
	async function record(tags) {
		if (!urls.length || !tags.length) return
		const rows = []
		for (const url of urls)
			for (let i = 0; i < tags.length; i += MAX_TAGS)
				rows.push({ url, tags: JSON.stringify(tags.slice(i, i + MAX_TAGS)), attempts: 0, due_at: Date.now() })
		if (db.inTransaction?.()) await db.transaction(({ trx }) => trx(TABLE).insert(rows))
		else await knex()(TABLE).insert(rows)
	}

	/** Runs a pass in `ms` (or sooner if one is already set for sooner). */
	function schedule(ms) {
		if (stopped) return
		const at = Date.now() + Math.max(0, ms)
		if (timer && timerAt <= at) return
		clearTimeout(timer)
		timerAt = at
		timer = setTimeout(() => {
			timer = null
			timerAt = Infinity
			// One pass at a time: two would both read the same rows as due and send them twice.
			if (running) return void running.then(() => schedule(0))
			running = pass()
				.catch((error) => {
					log.error(`[revalidate] ${error?.message ?? error}; again in ${delaysMs.at(-1)} ms`)
					schedule(delaysMs.at(-1))
				})
				.finally(() => (running = null))
		}, at - Date.now())
		timer.unref?.()
	}

	/** Sends each idle app its due rows, and sets the next pass for the earliest row still waiting. */
	async function pass() {
		const idle = urls.filter((url) => !busy.has(url))
		if (!idle.length) return
		// New changes first, and never in one request with retried ones: rows that failed together
		// (the same attempt count) go together, so a fresh change's request carries its own tags only.
		const due = await knex()(TABLE)
			.whereIn('url', idle)
			.where('due_at', '<=', Date.now())
			.orderBy([{ column: 'attempts' }, { column: 'id' }])
		for (const url of idle) {
			const batch = []
			const tags = new Set()
			const rows = due.filter((r) => r.url === url)
			for (const row of rows.filter((r) => r.attempts === rows[0].attempts)) {
				const more = JSON.parse(row.tags).filter((t) => !tags.has(t))
				if (batch.length && tags.size + more.length > MAX_TAGS) break
				batch.push(row)
				more.forEach((t) => tags.add(t))
			}
			if (batch.length) send(url, batch, [...tags])
		}
		const waiting = urls.filter((url) => !busy.has(url))
		const [next] = waiting.length ? await knex()(TABLE).whereIn('url', waiting).min('due_at as at') : []
		if (next?.at !== null && next?.at !== undefined) schedule(Number(next.at) - Date.now())
	}

	function send(url, rows, tags) {
		busy.add(url)
		deliver(url, rows, tags)
			.catch((error) => log.error(`[revalidate] ${url}: ${error?.message ?? error}`))
			.finally(() => {
				busy.delete(url)
				schedule(0)
			})
	}

	async function deliver(url, rows, tags) {
		let outcome
		let retryAfterMs = 0
		try {
			const res = await fetchImpl(new URL('/api/cms/revalidate', url), {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-cms-webhook-secret': secret },
				body: JSON.stringify({ tags }),
				signal: AbortSignal.timeout(5000),
			})
			outcome = res.status
			retryAfterMs = Number(res.headers.get('retry-after')) * 1000 || 0
			await res.body?.cancel()
		} catch (error) {
			outcome = error?.name ?? 'error'
		}
		const ids = rows.map((r) => r.id)
		if (outcome === 200) return knex()(TABLE).whereIn('id', ids).del()
		// A 4xx other than 429 will not change on its own (a wrong secret, a tag the app refuses): say so, stop.
		if (typeof outcome === 'number' && outcome < 500 && outcome !== 429) {
			log.error(`[revalidate] ${url} answered ${outcome} to ${tags.length} tag(s); not retried`)
			return knex()(TABLE).whereIn('id', ids).del()
		}
		const attempts = Math.max(...rows.map((r) => r.attempts)) + 1
		const delay = Math.max(delaysMs[Math.min(attempts, delaysMs.length) - 1], retryAfterMs)
		log.warn(`[revalidate] ${url}: ${outcome} (attempt ${attempts}); again in ${delay} ms`)
		await knex()(TABLE)
			.whereIn('id', ids)
			.update({ attempts, due_at: Date.now() + delay })
	}

	return {
		record,
		/** After a commit: send what is stored (changes close together go out together). */
		kick: () => schedule(BATCH_MS),
		/** At boot: makes the table, and sends what an earlier run left (rows of apps no longer listed are kept). */
		async start() {
			await ensureTable(knex())
			const [{ n }] = await knex()(TABLE)
				.whereNotIn('url', urls.length ? urls : [''])
				.count('* as n')
			if (Number(n)) log.warn(`[revalidate] ${n} stored webhook(s) for apps not in LMS_APP_URLS: kept, not sent`)
			schedule(0)
		},
		stop() {
			stopped = true
			clearTimeout(timer)
		},
	}
}

/** The host a site's pages are served on: its subdomain of APP_BASE_DOMAIN, the apex for `_apex`. */
const siteHost = (key, baseDomain) => (key === '_apex' ? baseDomain : `${key}.${baseDomain}`)

/** The tags one version of a document moves in the app's caches. */
function tagsOf(uid, doc, baseDomain) {
	if (!doc) return []
	if (uid === 'api::course.course') {
		const entries = (doc.modules ?? []).flatMap((m) => (m.entries ?? []).map((e) => `entry:${doc.slug}:${e.slug}`))
		return [`course:${doc.slug}`, ...entries]
	}
	if (uid === 'api::site.site') return [`site:${siteHost(doc.key, baseDomain)}`]
	if (uid === 'api::page.page' || uid === 'api::blog-post.blog-post') return ['cms:page-hierarchy']
	return []
}

module.exports = { createRevalidator, tagsOf, siteHost, TABLE }

'use strict'
/**
 * Revalidation webhooks: every change to content the app caches sends
 * `POST <app>/api/cms/revalidate` with the exact tags (course:<slug>, entry:<course>:<entry>,
 * site:<host>, cms:page-hierarchy) and the shared secret, to every app URL in LMS_APP_URLS.
 *
 * Why not Strapi's own webhooks: their body is fixed (the event and the entry), the app wants
 * tags. Sending happens after the change is committed and after the author's request is
 * answered; an app that is down or busy (5xx, 429, no answer) is asked again with backoff, so a
 * save never waits for an app. Tags of changes close together go out in one request per app.
 */

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 60000]
const BATCH_MS = 20
const MAX_TAGS = 100

function createRevalidator({ urls, secret, log, fetchImpl = fetch }) {
	const pending = new Map(urls.map((url) => [url, new Set()]))
	let timer = null
	const sent = []

	function enqueue(tags) {
		if (!urls.length || !tags.length) return
		for (const set of pending.values()) for (const tag of tags) set.add(tag)
		timer ??= setTimeout(flush, BATCH_MS)
	}

	function flush() {
		timer = null
		for (const [url, set] of pending) {
			if (!set.size) continue
			const tags = [...set]
			set.clear()
			for (let i = 0; i < tags.length; i += MAX_TAGS) deliver(url, tags.slice(i, i + MAX_TAGS), 0)
		}
	}

	async function deliver(url, tags, attempt) {
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
		sent.push({ url, tags, attempt, outcome, at: Date.now() })
		if (sent.length > 200) sent.shift()
		if (outcome === 200) return
		// A 4xx other than 429 will not change on its own (a wrong secret, a tag the app refuses): say so, stop.
		if (typeof outcome === 'number' && outcome < 500 && outcome !== 429) {
			log.error(`[revalidate] ${url} answered ${outcome} to ${tags.length} tag(s); not retried`)
			return
		}
		if (attempt >= RETRY_DELAYS_MS.length) {
			log.error(
				`[revalidate] ${url} unreachable (${outcome}) after ${attempt + 1} attempts; ${tags.length} tag(s) dropped (the app's cache refreshes within 60 s)`,
			)
			return
		}
		const delay = Math.max(RETRY_DELAYS_MS[attempt], retryAfterMs)
		log.warn(`[revalidate] ${url}: ${outcome}; again in ${delay} ms`)
		setTimeout(() => deliver(url, tags, attempt + 1), delay).unref?.()
	}

	return { enqueue, flush, sent }
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

module.exports = { createRevalidator, tagsOf, siteHost }

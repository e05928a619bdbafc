import { STRAPI_URL, type StrapiAdmin, type StrapiAnswer } from '#tests/support/strapi.ts'
import { TEST_SECRETS } from '#tests/support/env.ts'

/** The walls test's cases (walls.test.ts): what is called, and how its answer is judged. */

const KEY = process.env.CMS_API_UUID || TEST_SECRETS.CMS_API_UUID

/** A read-only test control of the CMS (CMS_TEST_CONTROLS=true): `_routes`, `_rows`. */
export async function control(path: string) {
	const res = await fetch(`${STRAPI_URL}/api/v1/${path}`, { headers: { 'x-api-key': KEY } })
	if (!res.ok) throw new Error(`${path}: ${res.status} (CMS_TEST_CONTROLS=true?)`)
	return res.json() as Promise<any>
}

export interface Route {
	key: string
	method: string
	path: string
}

export interface Case {
	what: string
	/** The route's `METHOD path`, when it is one of the table's. */
	key?: string
	/** The type whose document it acts on (the own cases run one type's in order). */
	uid: string
	method: string
	url: string
	body?: unknown
	/** Checks the answer; returns what is wrong, or nothing. */
	check: (answer: StrapiAnswer) => string | undefined
}

/** Runs `cases` `width` at a time; the failures, each with what was called and answered. */
export async function run(admin: StrapiAdmin, cases: Case[], width = 12) {
	const failures: string[] = []
	let next = 0
	const worker = async () => {
		while (next < cases.length) {
			const c = cases[next++]
			const answer = await admin.call(c.method, c.url, c.body)
			const wrong = c.check(answer)
			if (wrong) failures.push(`${c.what}: ${wrong} (${answer.status} ${JSON.stringify(answer.body).slice(0, 160)})`)
		}
	}
	await Promise.all(Array.from({ length: width }, worker))
	return failures
}

export const leak = (marks: string[]) => (a: StrapiAnswer) => {
	const text = JSON.stringify(a.body ?? '')
	const leaked = marks.find((m) => text.includes(m))
	return leaked ? `answered the other site's ${leaked}` : undefined
}
export const refused =
	(message: RegExp, marks: string[]) =>
	(a: StrapiAnswer): string | undefined => {
		const leaked = leak(marks)(a)
		if (leaked) return leaked
		if (a.status !== 403) return `expected 403`
		if (!message.test(a.body?.error?.message ?? '')) return `the refusal does not say why`
		return undefined
	}
const WALL = /another site|cannot be changed|not single types/
/** Not refused by the wall (Strapi's own permissions may refuse: authors do not publish site documents). */
export const allowed = (route: Route, uid: string) => (a: StrapiAnswer) => {
	if (a.status === 403 && WALL.test(a.body?.error?.message ?? '')) return 'refused by the wall'
	// Strapi 5.54 answers 500 to a discard of a type without drafts (the site), for everyone.
	const knownStrapiBug = uid === 'api::site.site' && route.path.endsWith('/actions/discard')
	return a.status >= 500 && !knownStrapiBug ? 'server error' : undefined
}
/** A write naming another site for one of the author's own documents: refused, or the site kept. */
export const stays = (a: StrapiAnswer) => {
	if (a.status === 403 || a.status === 404) return undefined
	const kept = (a.body?.data?.site ?? a.body?.data?.key) === 'acme'
	return a.status < 300 && kept ? undefined : 'moved to another site'
}

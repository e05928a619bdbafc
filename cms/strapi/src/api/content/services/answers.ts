/**
 * The content API's answers, remembered until the next write to content or media (src/index.ts calls
 * `changed` after each commit): the app asks again after every webhook, and a deep read of a course
 * costs Strapi 10 to 30 queries. One CMS process; see docs/authoring.md.
 */
const MEMO_MAX = 1000

function answers() {
	let generation = 0
	const memo = new Map<string, { generation: number; body: unknown }>()
	return {
		/** A write to content or media was committed: every remembered answer is stale. */
		changed() {
			generation++
		},
		/** The answer remembered for `key`, or the one `compute` makes (kept unless a write came meanwhile). */
		async answer(key: string, compute: () => Promise<unknown>) {
			const at = generation
			const hit = memo.get(key)
			if (hit && hit.generation === at) return hit.body
			const body = await compute()
			if (generation === at) {
				if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!)
				memo.set(key, { generation: at, body })
			}
			return body
		},
	}
}

export type Answers = ReturnType<typeof answers>
export default answers

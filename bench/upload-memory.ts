// What a 30 MB hand-in holds in the server's memory when the file store is slower than the
// client's link (decision 0030): the built app on PostgreSQL, every chunk insert slowed by a
// trigger, three files of 10 MB sent at once over loopback. The client's body is allocated before
// the baseline, so growth is the server's. Two hand-ins, one figure each: the peak resident set
// (garbage included), and the peak of what is still held after a full collection (heap plus
// buffers), sampled.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/upload-memory.ts
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { HAND_IN_LIMITS } from '#app/learning/hand-in-limits.ts'
import { multipartBody } from '#tests/support/client.ts'
import { execRaw } from '#tests/support/databases.ts'
import { DEMO_PASSWORD } from '#tests/support/env.ts'
import { startStack } from '#tests/support/stack.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const ACME = 'acme.localhost'
const COURSE = '/learn/course/intro-to-web'
const ASSIGNMENT = `${COURSE}/entry/build-a-form`
/** The pause of each chunk insert (256 KiB): about 5 s of store for 30 MB. */
const SLOW_MS = Number(process.env.SLOW_CHUNK_MS ?? 40)
const MB = 1024 * 1024

const stack = await startStack('pg')
try {
	await execRaw(
		stack.db,
		`CREATE FUNCTION slow_chunk() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(${SLOW_MS / 1000}); RETURN NEW; END $$ LANGUAGE plpgsql`,
	)
	await execRaw(
		stack.db,
		'CREATE TRIGGER slow_chunk BEFORE INSERT ON file_chunks FOR EACH ROW EXECUTE FUNCTION slow_chunk()',
	)
	const b = stack.browser(ACME)
	const expect302 = (status: number, what: string) => {
		if (status !== 302) throw new Error(`${what}: ${status}`)
	}
	expect302((await b.post('/learn/sign-in', { email: 'newbie@acme.test', password: DEMO_PASSWORD })).status, 'sign-in')
	expect302((await b.post(`${COURSE}/enroll`, {})).status, 'enroll')
	expect302((await b.post(`${COURSE}/entry/progressive-enhancement`, { intent: 'complete' })).status, 'complete')
	// A small hand-in first, so that what is measured is the large one alone.
	const warm = await b.postMultipart(ASSIGNMENT, { intent: 'hand-in' }, [{ name: 'warm.txt', body: 'warm' }])
	expect302(warm.status, 'warm-up')

	const files = ['a', 'b', 'c'].map((name) => ({
		name: `${name}.txt`,
		body: Buffer.alloc(HAND_IN_LIMITS.maxFileBytes, name),
	}))
	const { body, contentType } = await multipartBody({ intent: 'hand-in', text: 'Thirty megabytes' }, files)
	files.length = 0
	const held = () => {
		gc()
		const m = process.memoryUsage()
		return m.heapUsed + m.arrayBuffers
	}
	const mb = (bytes: number) => (bytes / MB).toFixed(2)
	/** One hand-in of the body: its peak RSS above the start, or (sampled) the peak held after a collection. */
	async function handIn(figure: 'rss' | 'held') {
		gc()
		const read = figure === 'rss' ? () => process.memoryUsage().rss : held
		const before = read()
		let peak = before
		const sampler = setInterval(() => (peak = Math.max(peak, read())), figure === 'rss' ? 10 : 100)
		const started = Date.now()
		const res = await stack.request(ACME, ASSIGNMENT, {
			method: 'POST',
			body,
			headers: { 'content-type': contentType, cookie: b.cookieHeader(), origin: b.origin },
		})
		clearInterval(sampler)
		expect302(res.status, 'hand-in')
		return { growth: mb(peak - before), seconds: ((Date.now() - started) / 1000).toFixed(1) }
	}
	const rss = await handIn('rss')
	const kept = await handIn('held')
	console.log(
		`${mb(body.length)} MiB hand-in, ${SLOW_MS} ms per 256 KiB chunk insert: peak RSS +${rss.growth} MiB ` +
			`(${rss.seconds} s); peak held after a full GC (heap + buffers, sampled every 100 ms) +${kept.growth} MiB (${kept.seconds} s)`,
	)
} finally {
	await stack.close()
}

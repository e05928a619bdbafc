// Pages at scale (issue 47, "Scale"), part of `npm run bench:admin`: a learner's dashboard with 50
// enrollments, and a course's admin dashboard with 10,000 learners, held to the per-page budget of
// scenario 2 (decision 0107): each at least SCALE_MIN_RATIO of the same route rendered by React Router
// with its loader data already in memory (bench/replay-server.ts), side by side, alternating rounds of
// the same load, one app process of the production build over one database. Reported beside it: the
// same page of a learner with one enrollment and of a course with one learner (what the size of the
// data costs, rendering included).
//
//   npm run build && npx tsx bench/scale-pages.ts [sqlite|pg]   (both when TEST_DATABASE_URL is set)
//
// Settings: SCALE_SECONDS per run (4), SCALE_ROUNDS (3), SCALE_LEARNERS (10000), SCALE_ONLY (the start of a
// pair's name: learner, course); SCALE_PROFILE=<dir> writes
// the app process's V8 CPU profile there (`node bench/profile-parts.mjs <dir>/` sums it by part).
import { rmSync } from 'node:fs'
import { startCms } from '#cms/server.ts'
import { markEntryCompleteRow, putEnrollment } from '#db/learning.ts'
import { seedDemoData } from '#db/seed.ts'
import { findUserByEmail } from '#db/users.ts'
import { contentWithCopies } from '#tests/support/content-copies.ts'
import { createTestDatabase, DIALECTS } from '#tests/support/databases.ts'
import { DEMO_PASSWORD, TEST_SECRETS } from '#tests/support/env.ts'
import { createUser, findTenantBySlug } from '#tests/support/repository.ts'
import { seedScale } from './scale-data.ts'
import {
	appEnv,
	appVariables,
	get,
	sessionCookie,
	sideBySide,
	snapshotBuild,
	spawnApp,
	spawnReplay,
} from './support.ts'

process.env.NODE_ENV = 'production'
const SECONDS = Number(process.env.SCALE_SECONDS ?? 4)
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3)
const LEARNERS = Number(process.env.SCALE_LEARNERS ?? 10_000)
const ENROLLMENTS = 50
/** Scenario 2's budget against the replayed loader data (bench/suite.ts, REPLAY_MIN_RATIO). */
const SCALE_MIN_RATIO = 0.6
const CONNECTIONS = 16
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en' }

const dialects = process.argv[2] ? [process.argv[2] as 'sqlite' | 'pg'] : DIALECTS
await snapshotBuild()
let missed = 0
for (const dialect of dialects) {
	// intro-to-web and 49 copies: 50 courses of the same content.
	const content = contentWithCopies(ENROLLMENTS - 1)
	const db = await createTestDatabase(dialect)
	await seedDemoData(db, DEMO_PASSWORD)
	const acme = (await findTenantBySlug(db, 'acme'))!
	// LEARNERS learners in intro-to-web, each with ten progress rows and a quiz attempt (bench/scale-data.ts).
	await seedScale(db, { users: LEARNERS, tenantId: acme.id })
	const cms = await startCms({
		apiKey: TEST_SECRETS.CMS_API_UUID,
		projectUuid: TEST_SECRETS.CMS_PROJECT_UUID,
		contentDir: content.dir,
	})
	const variables = appVariables({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
	const app = await spawnApp(variables, { cpuProfDir: process.env.SCALE_PROFILE })
	const env = appEnv({ DATABASE_URL: db.url, CMS_API_URL: cms.url })
	try {
		/** A learner enrolled in `courses`, the first three lessons of each done. */
		const learner = async (name: string, courses: string[]) => {
			const user = await createUser(db, {
				tenant_id: acme.id,
				email: `${name}@acme.test`,
				name,
				role: 'student',
				password_hash: '',
				email_verified_at: new Date(),
			})
			const scope = { tenantId: acme.id, userId: user.id }
			for (const course of courses) {
				await putEnrollment(db, scope, course, 'active')
				for (const entry of ['what-is-http', 'html-forms', 'progressive-enhancement'])
					await markEntryCompleteRow(db, scope, course, entry)
			}
			return sessionCookie(env, db, app.port, user)
		}
		// The one-course learner is in copy-1 only: the course with one learner on the admin side.
		const one = await learner('scale-one', [content.slugs[0]])
		const fifty = await learner('scale-fifty', ['intro-to-web', ...content.slugs])
		const admin = await sessionCookie(env, db, app.port, (await findUserByEmail(db, acme.id, 'admin@acme.test'))!)

		const pairs = [
			{
				name: `learner dashboard, ${ENROLLMENTS} enrollments against 1`,
				large: { path: '/learn/dashboard', cookie: fifty },
				small: { path: '/learn/dashboard', cookie: one },
			},
			{
				name: `course admin dashboard, ${LEARNERS + 1} learners against 1`,
				large: { path: '/admin/courses/intro-to-web/dashboard', cookie: admin },
				small: { path: `/admin/courses/${content.slugs[0]}/dashboard`, cookie: admin },
			},
		]
		for (const { name, large, small } of pairs.filter((p) => p.name.startsWith(process.env.SCALE_ONLY ?? ''))) {
			const bytes = []
			for (const side of [large, small]) {
				const res = await get(app.port, side.path, { ...BROWSER, cookie: side.cookie })
				if (res.status !== 200) throw new Error(`${side.path} answered ${res.status}`)
				bytes.push(res.body.length)
			}
			const options = (port: number, side: { path: string; cookie?: string }) => ({
				port,
				path: side.path,
				headers: side.cookie ? { ...BROWSER, cookie: side.cookie } : BROWSER,
				connections: CONNECTIONS,
			})
			const replay = await spawnReplay(variables, large.cookie, [large.path])
			let r
			try {
				r = await sideBySide(options(app.port, large), options(replay.port, { path: large.path }), SECONDS, ROUNDS)
			} finally {
				await replay.stop()
			}
			const s = await sideBySide(options(app.port, large), options(app.port, small), SECONDS, ROUNDS)
			const pass = r.ratio >= SCALE_MIN_RATIO && r.subject.errors === 0 && r.baseline.errors === 0
			if (!pass) missed++
			console.log(
				`${dialect}: ${name}: ${r.ratio.toFixed(2)} of its replayed loader data (${r.subject.rps} / ${r.baseline.rps} req/s, runs ${r.subject.runs.join(' ')} / ${r.baseline.runs.join(' ')}), p99 ${r.subject.p99} / ${r.baseline.p99} ms, errors ${r.subject.errors + r.baseline.errors}: ${pass ? 'within' : 'MISSED'} the budget (≥ ${SCALE_MIN_RATIO}); ${s.ratio.toFixed(2)} of the small case (${s.subject.rps} / ${s.baseline.rps} req/s, p99 ${s.subject.p99} / ${s.baseline.p99} ms, ${bytes[0]} / ${bytes[1]} bytes brotli)`,
			)
		}
	} finally {
		await app.stop()
		await cms.close()
		await db.drop()
		rmSync(content.dir, { recursive: true, force: true })
	}
}
process.exit(missed ? 1 : 0)

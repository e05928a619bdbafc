/**
 * Hostile class: signed and issued values read back in another spelling (issue 36, item 1). The
 * tenant-override proof was read with `split('.')`, its extra parts ignored, while its single use
 * was keyed on a hash of the whole string: `<used link>.x` signed in again, once per new suffix.
 * Every value the app issues and reads back is tried here in other spellings: the override proof
 * (extra segments, other separators, padding, whitespace, case, percent-encoding, duplicates,
 * length), the emailed tokens in their URLs, the session cookie and the impersonation marker, and
 * the keyset cursors of the admin lists. A spelling other than the one issued must be refused: no
 * session, nothing used up, no other page of a list.
 */
import { createHash } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintConsumedTokenProof } from '#app/accounts/auth.server.ts'
import { issueToken } from '#app/accounts/tokens.server.ts'
import type { Tenant } from '#db/tenants.ts'
import { findUserByEmail, upsertUser, type User } from '#db/users.ts'
import type { Browser } from '#tests/support/client.ts'
import { DIALECTS } from '#tests/support/databases.ts'
import { startStack, type Stack } from '#tests/support/stack.ts'
import { hostileClass } from './support.ts'
import { createInvitation, writeAudit } from '#tests/support/repository.ts'

const ACME = 'acme.localhost'

const APEX = 'localhost'

/** Spellings of a value with something after it: more segments, other separators, padding, whitespace. */
const SUFFIXES = [
	'.x',
	'.',
	'..',
	'.AAAA',
	'.0',
	'.enter',
	'%2Ex',
	'%2ex',
	'%2E',
	'=',
	'%3D',
	'%20',
	'%09',
	'+',
	'%0A',
	';x',
	',x',
	':x',
	'|x',
	'~',
	'x',
]

/** The same characters with one letter's case swapped (the first letter found after `from`). */
function swapCase(value: string, from = 0) {
	for (let i = from; i < value.length; i++) {
		const c = value[i]
		const swapped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()
		if (swapped !== c) return value.slice(0, i) + swapped + value.slice(i + 1)
	}
	return `${value}X`
}

/** The same value with one character written as a percent escape. */
const percentOne = (value: string, at = 0) =>
	`${value.slice(0, at)}%${value.charCodeAt(at).toString(16).toUpperCase()}${value.slice(at + 1)}`

/** A base64 string whose last character carries bits a lenient decoder drops: another spelling of the same bytes. */
function trailingBitsVariant(b64: string) {
	const alphabet = /[+/]/.test(b64)
		? 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
		: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
	const last = b64[b64.length - 1]
	const index = alphabet.indexOf(last)
	return `${b64.slice(0, -1)}${alphabet[index ^ 1]}`
}

describe.each(DIALECTS)('hostile signed values on %s', (dialect) => {
	let stack: Stack
	let acme: Tenant
	let root: User
	const hostile = hostileClass('signed-values', dialect)
	beforeAll(async () => {
		stack = await startStack(dialect)
		acme = stack.seeded.tenants.acme
		root = (await findUserByEmail(stack.db, null, 'root@platform.test'))!
	})
	afterAll(async () => {
		hostile.report()
		await stack?.close()
	})

	const signIn = (email: string, host = ACME) => stack.signIn(email, host)
	const sessionsOf = async (userId: string) =>
		(await stack.db.orm.select().from(stack.db.t.sessions).where(eq(stack.db.t.sessions.user_id, userId))).length

	/**
	 * Whether `path` on the tenant host gives a session: the GET, then, whatever it answered, a
	 * same-origin POST to the same URL (what the page's confirm button sends, and what an attacker
	 * holding the link can send without the page).
	 */
	async function opens(path: string, host = ACME, b: Browser = stack.browser(host)) {
		const before = await sessionsOf(root.id)
		const had = b.jar.get('lms_session')
		const opened = await b.get(path)
		let status = `${opened.status}`
		if (b.jar.get('lms_session') === had) {
			const confirmed = await b.post(path, {})
			status += ` then ${confirmed.status}`
		}
		const session = b.jar.get('lms_session') !== had || (await sessionsOf(root.id)) > before
		return { session, status }
	}

	/** An override link as /admin/tenants mints it (the proof as the app signs it, for bulk cases). */
	const overridePath = (proof: string, user = root.id) => `/admin/enter?user=${user}&proof=${encodeURIComponent(proof)}`
	const freshProof = () => mintConsumedTokenProof(stack, root, `enter-${acme.id}`)

	it('refuses a used override link in any other spelling, and an unused one in any but its own', async () => {
		// The example of the issue: a link minted by the apex page, used once, then with `.x` appended.
		const apex = await signIn('root@platform.test', APEX)
		const entered = await apex.post('/admin/tenants', { intent: 'enter', tenantId: acme.id })
		const link = new URL(String(entered.headers.location))
		const path = `${link.pathname}${link.search}`
		const first = await opens(path)
		expect(first.session, `the link itself (${first.status})`).toBe(true)
		const again = await opens(path)
		hostile.check('the used link again', !again.session, again.status)
		for (const suffix of SUFFIXES) {
			const replay = await opens(`${path}${suffix}`)
			hostile.check(`used link + ${JSON.stringify(suffix)}`, !replay.session, replay.status)
		}

		// Other spellings of an unused link: each refused, and the link itself then works, once.
		const variants: [string, (proof: string) => string][] = [
			...SUFFIXES.map(
				(s) => [`+ ${JSON.stringify(s)}`, (p: string) => `${overridePath(p)}${s}`] as [string, (p: string) => string],
			),
			['dots as colons', (p) => overridePath(p.replaceAll('.', ':'))],
			['first dot as a comma', (p) => overridePath(p.replace('.', ','))],
			['dots percent-encoded', (p) => overridePath(p).replaceAll('.', '%2E')],
			['one letter percent-encoded', (p) => overridePath(p).replace('proof=e', 'proof=%65')],
			['the ref in upper case', (p) => overridePath(p.replace('enter-', 'ENTER-'))],
			['a letter of the MAC in the other case', (p) => overridePath(swapCase(p, p.lastIndexOf('.') + 1))],
			['the MAC with padding', (p) => overridePath(`${p}=`)],
			['the MAC with trailing bits', (p) => overridePath(trailingBitsVariant(p))],
			['leading whitespace', (p) => overridePath(` ${p}`)],
			['the time with a leading zero', (p) => overridePath(p.replace(/\.(\d+)\./, '.0$1.'))],
			['the time with a plus sign', (p) => overridePath(p.replace(/\.(\d+)\./, '.%2B$1.'))],
			['the proof twice', (p) => `${overridePath(p)}&proof=${p}`],
			['the proof twice, a suffixed one first', (p) => `/admin/enter?user=${root.id}&proof=${p}.x&proof=${p}`],
			['the user twice', (p) => `${overridePath(p)}&user=${root.id}`],
			['the user in upper case', (p) => overridePath(p, root.id.toUpperCase())],
			['the user with a suffix', (p) => overridePath(p, `${root.id}.x`)],
			['the parameters in the other order', (p) => `/admin/enter?proof=${p}&user=${root.id}`],
			['an extra parameter', (p) => `${overridePath(p)}&next=/admin`],
			['10,000 more characters', (p) => overridePath(`${p}.${'A'.repeat(10_000)}`)],
		]
		for (const [label, spell] of variants) {
			const proof = freshProof()
			const variant = await opens(spell(proof))
			hostile.check(`unused link, ${label}`, !variant.session, variant.status)
			if (!variant.session) {
				const own = await opens(overridePath(proof))
				hostile.check(`unused link, ${label}: the link itself still works`, own.session, own.status)
			}
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('refuses emailed tokens in any spelling but the one mailed, and leaves them unused', async () => {
		const learner = (await findUserByEmail(stack.db, acme.id, 'learner@acme.test'))!
		const admin = (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!
		const { verification_tokens: vt, invitations } = stack.db.t
		const unusedToken = async (raw: string) => {
			const rows = await stack.db.orm.select().from(vt).where(isNull(vt.used_at))
			return rows.some((r) => r.token_hash === createHash('sha256').update(raw).digest('hex'))
		}
		const unusedInvitation = async (id: string) =>
			(
				await stack.db.orm
					.select()
					.from(invitations)
					.where(and(eq(invitations.id, id), isNull(invitations.accepted_at)))
			).length === 1
		const TOKEN_SPELLINGS: [string, (t: string) => string][] = [
			...SUFFIXES.map((s) => [`+ ${JSON.stringify(s)}`, (t: string) => `${t}${s}`] as [string, (t: string) => string]),
			['another letter case', (t) => swapCase(t)],
			['a letter percent-encoded', (t) => percentOne(t, t.search(/[A-Za-z]/))],
			['trailing bits', (t) => trailingBitsVariant(t)],
			['leading whitespace', (t) => `%20${t}`],
			['twice', (t) => `${t}${t}`],
			['10,000 more characters', (t) => `${t}${'A'.repeat(10_000)}`],
		]
		const cases: {
			kind: string
			path: (t: string) => string
			fresh: () => Promise<{ raw: string; unused: () => Promise<boolean> }>
			post: Record<string, string>
		}[] = [
			{
				kind: 'magic link',
				path: (t) => `/learn/magic/${t}`,
				post: {},
				fresh: async () => {
					const raw = await issueToken(stack.db, learner.id, 'magic_link')
					return { raw, unused: () => unusedToken(raw) }
				},
			},
			{
				kind: 'verification link',
				path: (t) => `/learn/verify/${t}`,
				post: {},
				fresh: async () => {
					const raw = await issueToken(stack.db, learner.id, 'email_verify')
					return { raw, unused: () => unusedToken(raw) }
				},
			},
			{
				kind: 'reset link',
				path: (t) => `/learn/reset/${t}`,
				post: { password: 'a-new-pass-2026', confirm: 'a-new-pass-2026' },
				fresh: async () => {
					const raw = await issueToken(stack.db, learner.id, 'password_reset')
					return { raw, unused: () => unusedToken(raw) }
				},
			},
			{
				kind: 'invitation',
				path: (t) => `/invite/${t}`,
				post: { name: 'Ivy Invitee', password: 'a-new-pass-2026' },
				fresh: async () => {
					const email = `signed-${Math.random().toString(36).slice(2)}@acme.test`
					const { raw, invitation } = await createInvitation(stack, {
						tenantId: acme.id,
						email,
						role: 'student',
						invitedBy: admin.id,
					})
					return { raw, unused: () => unusedInvitation(invitation.id) }
				},
			},
		]
		for (const c of cases) {
			for (const [label, spell] of TOKEN_SPELLINGS) {
				const { raw, unused } = await c.fresh()
				if (spell(raw) === raw) continue
				const b = stack.browser(ACME)
				const path = c.path(spell(raw))
				const opened = await b.get(path)
				const posted = await b.post(path, c.post)
				hostile.check(
					`${c.kind}, ${label}`,
					!b.jar.has('lms_session') && (await unused()),
					`GET ${opened.status}, POST ${posted.status}`,
				)
			}
		}

		// The email-change link (it carries the new address): the owner signed in, other spellings of the link.
		const owner = await signIn('newbie@acme.test')
		const newbie = (await findUserByEmail(stack.db, acme.id, 'newbie@acme.test'))!
		for (const [label, spell] of [
			...TOKEN_SPELLINGS,
			['the address with padding', (t: string) => `${t}=`],
			['the address with trailing bits', (t: string) => trailingBitsVariant(t)],
			['the address in standard base64', (t: string) => t.replaceAll('-', '+').replaceAll('_', '/')],
		] as [string, (t: string) => string][]) {
			const raw = await issueToken(stack.db, newbie.id, 'email_change', { payload: 'noah.new@acme.test' })
			// A spelling that happens to be the link itself (no `-` or `_` to turn into `+` or `/`) is no case.
			if (spell(raw) === raw) continue
			const path = `/learn/account/email/${spell(raw)}`
			await owner.get(path)
			const posted = await owner.post(path, {})
			const current = await findUserByEmail(stack.db, acme.id, 'newbie@acme.test')
			hostile.check(
				`email-change link, ${label}`,
				current?.email === 'newbie@acme.test' && (await unusedToken(raw)),
				`POST ${posted.status}`,
			)
		}
		expect(hostile.newFailures()).toEqual([])
	}, 180_000)

	it('reads the session cookie and the impersonation marker only as they were set', async () => {
		const learner = await signIn('learner@acme.test')
		const value = learner.jar.get('lms_session')!
		const decoded = decodeURIComponent(value)
		const [data, mac] = [decoded.slice(0, decoded.lastIndexOf('.')), decoded.slice(decoded.lastIndexOf('.') + 1)]
		const encode = (v: string) => encodeURIComponent(v)
		const signedIn = async (cookie: string) =>
			(await stack.request(ACME, '/learn/account', { headers: { cookie } })).status === 200
		expect(await signedIn(`lms_session=${value}`), 'the cookie as set').toBe(true)
		const spellings: [string, string][] = [
			['without percent-encoding', `lms_session=${decoded}`],
			['lower-case escapes', `lms_session=${value.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}`],
			['quoted', `lms_session="${value}"`],
			['the MAC with padding', `lms_session=${encode(`${data}.${mac}=`)}`],
			['the MAC with trailing bits', `lms_session=${encode(`${data}.${trailingBitsVariant(mac)}`)}`],
			['whitespace in the MAC', `lms_session=${encode(`${data}.${mac.slice(0, 10)} ${mac.slice(10)}`)}`],
			['a newline in the MAC', `lms_session=${encode(`${data}.${mac.slice(0, 10)}\n${mac.slice(10)}`)}`],
			['twice', `lms_session=${value}; lms_session=${value}`],
			['after a forged one', `lms_session=x.y; lms_session=${value}`],
			['before a forged one', `lms_session=${value}; lms_session=x.y`],
			['a space before the equals sign', `lms_session =${value}`],
			['10,000 more characters', `lms_session=${value}${'%20'.repeat(3_000)}`],
		]
		for (const [label, cookie] of spellings)
			if (cookie !== `lms_session=${value}`) hostile.check(`session cookie ${label}`, !(await signedIn(cookie)))

		// The impersonation marker: a fresh impersonation for each spelling; stop must refuse all but the one set.
		const target = (await findUserByEmail(stack.db, acme.id, 'newbie@acme.test'))!
		const impersonating = async () => {
			const b = stack.browser(ACME)
			expect((await opens(overridePath(freshProof()), ACME, b)).session).toBe(true)
			expect((await b.post('/api/admin/impersonate/start', { userId: target.id })).status).toBe(303)
			return b
		}
		const markerSpellings: [string, (v: string) => string][] = [
			['without percent-encoding', (v) => decodeURIComponent(v)],
			['lower-case escapes', (v) => v.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
			['quoted', (v) => `"${v}"`],
			['the MAC with padding', (v) => encode(`${decodeURIComponent(v)}=`)],
			['the MAC with trailing bits', (v) => encode(trailingBitsVariant(decodeURIComponent(v)))],
			['whitespace in the MAC', (v) => encode(`${decodeURIComponent(v)}`.replace(/\.(.{5})/, '.$1 '))],
		]
		for (const [label, spell] of markerSpellings) {
			const b = await impersonating()
			const marker = b.jar.get('__impersonator_uid')!
			if (spell(marker) === marker) continue
			b.jar.set('__impersonator_uid', spell(marker))
			const stop = await b.post('/api/admin/impersonate/stop', {})
			hostile.check(`impersonation marker ${label}`, stop.status === 403, `${stop.status}`)
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)

	it('pages the admin lists only from cursors it wrote', async () => {
		// Enough people for a list of several pages, and audit rows at known times.
		for (let i = 0; i < 60; i++)
			await upsertUser(stack.db, {
				tenant_id: acme.id,
				email: `cursor-${String(i).padStart(2, '0')}@acme.test`,
				role: 'student',
				name: `Cursor ${i}`,
			})
		const admin = await signIn('admin@acme.test')
		const first = await admin.get('/admin/users')
		expect(first.status).toBe(200)
		const next = /href="[^"]*[?&]after=([0-9a-f-]{36})[^"]*"/.exec(first.text.replaceAll('&amp;', '&'))
		expect(next, 'a next-page link').not.toBeNull()
		const cursor = next![1]
		const rowsOf = (html: string) => [...html.matchAll(/href="[^"]*\/admin\/users\/([0-9a-f-]{36})"/g)].map((m) => m[1])
		const firstRows = rowsOf(first.text)
		const secondRows = rowsOf((await admin.get(`/admin/users?after=${cursor}`)).text)
		expect(secondRows[0]).not.toBe(firstRows[0])
		const spellings: [string, string][] = [
			['upper case', `after=${cursor.toUpperCase()}`],
			['a suffix', `after=${cursor}.x`],
			['whitespace', `after=%20${cursor}`],
			['a trailing newline', `after=${cursor}%0A`],
			['a letter percent-encoded', `after=${percentOne(cursor, cursor.search(/[a-f]/))}`],
			['twice', `after=${cursor}&after=${cursor}`],
			['twice, the first another', `after=x&after=${cursor}`],
			['with before too', `after=${cursor}&before=${cursor}`],
			['without dashes', `after=${cursor.replaceAll('-', '')}`],
			['in braces', `after=%7B${cursor}%7D`],
			['10,000 more characters', `after=${cursor}${'0'.repeat(10_000)}`],
		]
		for (const [label, query] of spellings) {
			const res = await admin.get(`/admin/users?${query}`)
			const rows = rowsOf(res.text)
			hostile.check(
				`user list cursor ${label}`,
				res.status < 500 && rows.length > 0 && rows[0] === firstRows[0],
				`${res.status}, ${rows.length} rows, first ${rows[0] === secondRows[0] ? "the cursor's page" : rows[0]}`,
			)
		}

		// The audit log continues from an instant it wrote (`toISOString()`), in no other spelling.
		const adminUser = (await findUserByEmail(stack.db, acme.id, 'admin@acme.test'))!
		for (let i = 0; i < 3; i++)
			await writeAudit(stack.db, {
				actorUserId: adminUser.id,
				action: 'user.signed_out',
				targetKind: 'user',
				targetId: adminUser.id,
				tenantId: acme.id,
			})
		const rows = await stack.db.orm
			.select()
			.from(stack.db.t.audit_log)
			.where(eq(stack.db.t.audit_log.tenant_id, acme.id))
		const newest = rows.map((r) => r.created_at).sort((a, b) => b.getTime() - a.getTime())[0]
		const iso = newest.toISOString()
		const countOf = async (query: string) => {
			const res = await admin.get(`/admin/audit?${query}`)
			return { status: res.status, n: (res.text.match(/<tr/g) ?? []).length }
		}
		const all = await countOf('')
		// As the page's own link writes it (URLSearchParams: `:` as %3A).
		const own = new URLSearchParams({ before: iso }).toString()
		const older = await countOf(own)
		expect(older.n).toBeLessThan(all.n)
		const spelled = (value: string) => new URLSearchParams({ before: value }).toString()
		for (const [label, query] of [
			['more fraction digits', spelled(iso.replace('Z', '000Z'))],
			['no fraction', spelled(iso.replace(/\.\d{3}Z$/, 'Z'))],
			['a lower-case t', spelled(iso.replace('T', 't'))],
			['an offset instead of Z', spelled(iso.replace('Z', '+00:00'))],
			['a space instead of T', spelled(iso.replace('T', ' '))],
			['colons not encoded', `before=${iso}`],
			['lower-case escapes', own.replaceAll('%3A', '%3a')],
			['twice', `${own}&${own}`],
			['10,000 more characters', spelled(`${iso}${'0'.repeat(10_000)}`)],
		] as const) {
			const res = await countOf(query)
			hostile.check(
				`audit cursor ${label}`,
				res.status < 500 && res.n === all.n,
				`${res.status}, ${res.n} of ${all.n} rows`,
			)
		}
		expect(hostile.newFailures()).toEqual([])
	}, 120_000)
})

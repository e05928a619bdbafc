import { mkdirSync, writeFileSync } from 'node:fs'

/**
 * One class of hostile cases (redirect targets, path normalisation, proxy
 * headers, sessions, cross-tenant, enumeration, error leaks): counts every case
 * it checks and every failure, writes them to .tmp/hostile/ (printed per class
 * by scripts/test-summary.js in CI) and to the test log.
 */
export function hostileClass(name: string, dialect: string) {
	let cases = 0
	const failures: string[] = []
	let seen = 0
	return {
		failures,
		/** The failures since the last call: each test asserts on its own cases. */
		newFailures() {
			const fresh = failures.slice(seen)
			seen = failures.length
			return fresh
		},
		/** One case: `ok` is whether the app held; `detail` says what it did instead. */
		check(label: string, ok: boolean, detail = '') {
			cases++
			if (!ok) failures.push(detail ? `${label}: ${detail}` : label)
		},
		report() {
			mkdirSync('.tmp/hostile', { recursive: true })
			writeFileSync(
				`.tmp/hostile/${name}.${dialect}.json`,
				JSON.stringify({ class: name, dialect, cases, failures: failures.length }),
			)
			console.log(`hostile ${name} on ${dialect}: ${cases} cases, ${failures.length} failures`)
		},
	}
}

export type HostileClass = ReturnType<typeof hostileClass>

/** Whether a Location header, resolved as the browser on `pageUrl` resolves it, stays on that page's origin. */
export function staysOnOrigin(location: string, pageUrl: string) {
	try {
		return new URL(location, pageUrl).origin === new URL(pageUrl).origin
	} catch {
		// A Location the browser cannot parse goes nowhere.
		return true
	}
}

/**
 * Mann-Whitney U test, two-sided, normal approximation with tie correction:
 * the probability of rank sums at least this far apart if both samples came
 * from the same distribution.
 */
export function mannWhitneyP(a: number[], b: number[]) {
	const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v)
	const ranks = new Array<number>(all.length)
	let tieTerm = 0
	for (let i = 0; i < all.length;) {
		let j = i
		while (j + 1 < all.length && all[j + 1].v === all[i].v) j++
		const rank = (i + j) / 2 + 1
		for (let k = i; k <= j; k++) ranks[k] = rank
		const t = j - i + 1
		tieTerm += t ** 3 - t
		i = j + 1
	}
	const n1 = a.length
	const n2 = b.length
	const r1 = all.reduce((sum, x, i) => (x.g === 0 ? sum + ranks[i] : sum), 0)
	const u = r1 - (n1 * (n1 + 1)) / 2
	const mean = (n1 * n2) / 2
	const n = n1 + n2
	const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))))
	if (sd === 0) return 1
	const z = (Math.abs(u - mean) - 0.5) / sd
	return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))))
}

// Abramowitz and Stegun 26.2.17 (error below 7.5e-8).
function normalCdf(z: number) {
	const t = 1 / (1 + 0.2316419 * z)
	const d = 0.3989423 * Math.exp((-z * z) / 2)
	const p = d * t * (0.3193815 + t * (-0.3565638 + t * (1.781478 + t * (-1.821256 + t * 1.330274))))
	return 1 - p
}

export const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]

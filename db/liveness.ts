import postgres from 'postgres'

/**
 * A PostgreSQL pool that tells a slow server from a dead one (issue 46, docs/decisions/0051-counters-at-commit.md).
 * A query is never cut for being slow: when the oldest query outstanding has heard nothing from the
 * server for SUSPECT_AFTER_MS, the server is asked `select 1` on a connection of its own. An answer
 * within PROBE_MS means it lives (a lock wait, a long statement: the server's own statement and lock
 * timeouts bound those). No answer means it is frozen or gone: every connection of the pool is
 * dropped at once (what was sent and what waited for a connection fail as unavailable), queries
 * are refused at once instead of waiting, and the server is asked again every RETRY_MS until it
 * answers; then a fresh pool serves. A probe that gets no answer drops the pool whoever asked it
 * (the watchdog or readiness).
 */
const SUSPECT_AFTER_MS = 500
const PROBE_MS = 300
const RETRY_MS = 200
/** A question unanswered this long is asked again on a new connection (well inside the 2 s of full service after a return). */
const REASK_AFTER_MS = 1_000

/** The error of a query refused while the server is down: a connection error, as the pool's own. */
function databaseDown() {
	return Object.assign(new Error('the database does not answer'), { code: 'CONNECTION_CLOSED' })
}

/** A rejected query as drizzle uses one: awaited, or `.values()` awaited. */
function refusedQuery() {
	const failed = Promise.reject(databaseDown())
	failed.catch(() => {})
	return Object.assign(failed, { values: () => failed, cancel: () => {} })
}

export interface LivePool {
	/** The pool to query: always the current one (a proxy). */
	sql: postgres.Sql
	/**
	 * Resolves when the server answers within PROBE_MS; fails at once while it is known to be down or a
	 * silent server is being asked (readiness never adds a wait of its own to what is known).
	 */
	ping(): Promise<void>
	close(): Promise<void>
}

export function livePool(make: (max?: number) => postgres.Sql): LivePool {
	const first = make()
	let current = first
	let down = false
	let closed = false
	/** When each outstanding query started, and when the server last answered anything. */
	const outstanding = new Map<object, number>()
	let lastAnswer = Date.now()
	let probing: Promise<boolean> | null = null
	/** The watchdog's probe is out: the server has been silent for SUSPECT_AFTER_MS with queries waiting. */
	let suspect = false
	let prober = make(1)

	/**
	 * The question on the air, and when it was sent. A later probe waits on it rather than asking on a new
	 * connection: a frozen server answers it when it thaws, and a connection a second (a process on the
	 * server, forked and ended) every probe is work a loaded host pays for (issue 46).
	 */
	let asked: { answer: Promise<boolean>; at: number } | null = null
	function ask() {
		const question = {
			at: Date.now(),
			answer: prober`select 1`.then(
				() => ((lastAnswer = Date.now()), true),
				() => false,
			),
		}
		void question.answer.then(() => asked === question && (asked = null))
		return question
	}

	/** Asks the server; false when it does not answer within PROBE_MS. */
	function probe(): Promise<boolean> {
		probing ??= new Promise<boolean>((resolve) => {
			if (asked && Date.now() - asked.at >= REASK_AFTER_MS) {
				// Unanswered this long, its bytes may be lost (a link that swallows them): a fresh connection.
				void prober.end({ timeout: 0 }).catch(() => {})
				prober = make(1)
				asked = null
			}
			let answered = false
			;(asked ??= ask()).answer.then((alive) => ((answered = true), resolve(alive)))
			// An answer already read by the socket is handled before this decides (timers run before I/O).
			setTimeout(() => setImmediate(() => answered || resolve(false)), PROBE_MS).unref()
		}).then((alive) => {
			probing = null
			suspect = false
			// Whoever asked (the watchdog or readiness), no answer is the same knowledge: the pool goes.
			if (!alive && !down && !closed) dropPool()
			return alive
		})
		return probing
	}

	function dropPool() {
		down = true
		const dead = current
		current = make()
		Object.assign(current.options.parsers, first.options.parsers)
		Object.assign(current.options.serializers, first.options.serializers)
		void dead.end({ timeout: 0 }).catch(() => {})
		const again = () => {
			if (closed) return
			void probe().then((alive) => (alive ? (down = false) : setTimeout(again, RETRY_MS).unref()))
		}
		setTimeout(again, RETRY_MS).unref()
	}

	const watchdog = setInterval(() => {
		if (down || probing || outstanding.size === 0) return
		const oldest = Math.min(...outstanding.values())
		if (Date.now() - Math.max(oldest, lastAnswer) < SUSPECT_AFTER_MS) return
		suspect = true
		void probe()
	}, 100)
	watchdog.unref()

	function track<Q extends PromiseLike<unknown>>(query: Q): Q {
		const key = {}
		outstanding.set(key, Date.now())
		const settled = () => {
			outstanding.delete(key)
			lastAnswer = Date.now()
		}
		// A query's own `then` starts it after a microtask, so drizzle's `.values()` still applies.
		query.then(settled, settled)
		return query
	}

	/** The transaction's connection, with its queries tracked too. */
	const trackedTx = (sql: postgres.TransactionSql) =>
		new Proxy(sql, {
			get(target, property, receiver) {
				if (property === 'unsafe') return (...args: Parameters<postgres.Sql['unsafe']>) => track(target.unsafe(...args))
				return Reflect.get(target, property, receiver)
			},
		})

	const sql = new Proxy(first, {
		get(_, property) {
			if (property === 'unsafe')
				return (...args: Parameters<postgres.Sql['unsafe']>) => (down ? refusedQuery() : track(current.unsafe(...args)))
			if (property === 'begin')
				return (...args: unknown[]) => {
					if (down) return Promise.reject(databaseDown())
					const body = args.pop() as (sql: postgres.TransactionSql) => unknown
					return (current.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: postgres.TransactionSql) =>
						body(trackedTx(tx)),
					)
				}
			return Reflect.get(current, property)
		},
	})

	return {
		sql,
		// Readiness answers from what is known at once (down, or silent and being asked); otherwise it asks,
		// and the question is bounded by PROBE_MS whatever the server does.
		ping: async () => {
			if (down || suspect || !(await probe())) throw databaseDown()
		},
		close: async () => {
			closed = true
			clearInterval(watchdog)
			await Promise.all([current.end({ timeout: 5 }), prober.end({ timeout: 1 })])
		},
	}
}

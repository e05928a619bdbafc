import postgres from 'postgres'

/**
 * A PostgreSQL pool that tells a slow server from a dead one (issue 46, docs/decisions/0051-counters-at-commit.md).
 * A query is never cut for being slow: when the oldest query outstanding has heard nothing from the
 * server for SUSPECT_AFTER_MS, the server is asked `select 1` on a connection of its own (opened once
 * the pool is first answered). An answer within PROBE_MS (the connect timeout while that connection
 * is still being set up) means it lives (a lock wait, a long statement: the server's own statement and lock
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

/**
 * Rejects when the pool it was made for is dropped. A transaction begun on that pool waits on it as
 * well as on postgres.js: a query that failed with its connection destroyed leaves the connection
 * marked busy, so the transaction's ROLLBACK queues behind it and would wait for the socket to
 * close, which a frozen server only does when it thaws.
 */
function lostSignal() {
	let drop = () => {}
	const lost = new Promise<never>((_, reject) => (drop = () => reject(databaseDown())))
	lost.catch(() => {})
	return { lost, drop }
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

/** When each outstanding query started, and when the server last answered anything. */
function queryClock(onAnswer: () => void) {
	const outstanding = new Map<object, number>()
	const clock = {
		lastAnswer: Date.now(),
		/** How long the oldest outstanding query has heard nothing from the server; 0 when none is outstanding. */
		silentFor() {
			if (outstanding.size === 0) return 0
			const oldest = Math.min(...outstanding.values())
			return Date.now() - Math.max(oldest, clock.lastAnswer)
		},
		track<Q extends PromiseLike<unknown>>(query: Q): Q {
			const key = {}
			outstanding.set(key, Date.now())
			const settled = () => {
				outstanding.delete(key)
				clock.lastAnswer = Date.now()
			}
			// A query's own `then` starts it after a microtask, so drizzle's `.values()` still applies.
			query.then(() => (settled(), onAnswer()), settled)
			return query
		},
	}
	return clock
}

/**
 * The probe's connection and the question on the air, and when it was sent. A later probe waits on it
 * rather than asking on a new connection: a frozen server answers it when it thaws, and a connection a
 * second (a process on the server, forked and ended) every probe is work a loaded host pays for (issue 46).
 */
function questioner(make: (max?: number) => postgres.Sql, heard: () => void) {
	let prober = make(1)
	/** Whether the prober's connection has answered: until then a question waits on its setup too. */
	let connected = false
	let asked: { answer: Promise<boolean>; at: number } | null = null
	function ask() {
		const on = prober
		const question = {
			at: Date.now(),
			answer: on`select 1`.then(
				() => ((connected ||= on === prober), heard(), true),
				() => false,
			),
		}
		void question.answer.then(() => asked === question && (asked = null))
		return question
	}
	return {
		/** Whether the server answers the question on the air (or a new one); false when the connection fails. */
		answer() {
			if (asked && Date.now() - asked.at >= REASK_AFTER_MS) {
				// Unanswered this long, its bytes may be lost (a link that swallows them): a fresh connection.
				void prober.end({ timeout: 0 }).catch(() => {})
				prober = make(1)
				connected = false
				asked = null
			}
			return (asked ??= ask()).answer
		},
		/**
		 * How long the question on the air may go unanswered before the server counts as frozen. On a
		 * connection not yet answered, its setup (a process forked on the server, authentication) comes
		 * first, which a loaded server takes well over PROBE_MS to do while it answers queries on open
		 * connections in a millisecond: the connection's own connect timeout (db/client.ts) bounds that.
		 */
		bound: () => (connected ? PROBE_MS : prober.options.connect_timeout * 1000),
		/**
		 * Opens the prober's connection once the server has answered the pool (its first query), so that
		 * a later question is a round trip on an open connection, bounded by PROBE_MS: a false "frozen"
		 * from a slow connection setup drops every connection of a loaded server, whose reconnecting
		 * then loads it more.
		 */
		open() {
			if (!connected && !asked) void this.answer()
		},
		end: (timeout: number) => prober.end({ timeout }),
	}
}

/**
 * The pool the app queries: always the current one, its queries (a transaction's too) tracked, and
 * refused at once while the server is known to be down.
 */
function routedSql(
	first: postgres.Sql,
	pool: { readonly current: postgres.Sql; readonly down: boolean; readonly lost: Promise<never> },
	track: <Q extends PromiseLike<unknown>>(query: Q) => Q,
) {
	/** The transaction's connection, with its queries tracked too. */
	const trackedTx = (sql: postgres.TransactionSql) =>
		new Proxy(sql, {
			get(target, property, receiver) {
				if (property === 'unsafe') return (...args: Parameters<postgres.Sql['unsafe']>) => track(target.unsafe(...args))
				return Reflect.get(target, property, receiver)
			},
		})
	return new Proxy(first, {
		get(_, property) {
			if (property === 'unsafe')
				return (...args: Parameters<postgres.Sql['unsafe']>) =>
					pool.down ? refusedQuery() : track(pool.current.unsafe(...args))
			if (property === 'begin')
				return (...args: unknown[]) => {
					if (pool.down) return Promise.reject(databaseDown())
					const body = args.pop() as (sql: postgres.TransactionSql) => unknown
					// The whole transaction is tracked too: its BEGIN and COMMIT are sent by postgres.js itself,
					// not through the proxy, and one frozen there would otherwise wait for the thaw unseen.
					const transaction = (pool.current.begin as (...a: unknown[]) => Promise<unknown>)(
						...args,
						(tx: postgres.TransactionSql) => body(trackedTx(tx)),
					)
					return track(Promise.race([transaction, pool.lost]))
				}
			return Reflect.get(pool.current, property)
		},
	})
}

export function livePool(make: (max?: number) => postgres.Sql): LivePool {
	const first = make()
	let current = first
	let down = false
	let closed = false
	const clock = queryClock(() => question.open())
	let probing: Promise<boolean> | null = null
	/** The watchdog's probe is out: the server has been silent for SUSPECT_AFTER_MS with queries waiting. */
	let suspect = false
	let signal = lostSignal()
	const question = questioner(make, () => (clock.lastAnswer = Date.now()))

	/** Asks the server; false when it does not answer within PROBE_MS. */
	function probe(): Promise<boolean> {
		probing ??= new Promise<boolean>((resolve) => {
			let answered = false
			question.answer().then((alive) => ((answered = true), resolve(alive)))
			// An answer already read by the socket is handled before this decides (timers run before I/O).
			setTimeout(() => setImmediate(() => answered || resolve(false)), question.bound()).unref()
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
		signal.drop()
		signal = lostSignal()
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
		if (down || probing || clock.silentFor() < SUSPECT_AFTER_MS) return
		suspect = true
		void probe()
	}, 100)
	watchdog.unref()

	const pool = {
		get current() {
			return current
		},
		get down() {
			return down
		},
		get lost() {
			return signal.lost
		},
	}
	return {
		sql: routedSql(first, pool, clock.track),
		// Readiness answers from what is known at once (down, or silent and being asked); otherwise it asks,
		// and the question is bounded by PROBE_MS whatever the server does.
		ping: async () => {
			if (down || suspect || !(await probe())) throw databaseDown()
		},
		close: async () => {
			closed = true
			clearInterval(watchdog)
			await Promise.all([current.end({ timeout: 5 }), question.end(1)])
		},
	}
}

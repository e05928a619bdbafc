import { LRUCache } from 'lru-cache'

/**
 * A function of one header value with its answers remembered for the most
 * recently used distinct values: browsers send the same few Accept-Encoding and
 * Accept-Language strings, and parsing them was a visible part of serving a
 * cached page. At most `max` answers are kept.
 */
export function memoizeByString<T extends NonNullable<unknown>>(
	fn: (input: string) => T,
	max = 256,
): (input: string) => T {
	const seen = new LRUCache<string, T>({ max })
	return (input) => {
		let value = seen.get(input)
		if (value === undefined) {
			value = fn(input)
			seen.set(input, value)
		}
		return value
	}
}

/**
 * Concurrent calls for one key share one promise until it settles (single flight): a cache miss
 * that many requests hit at once makes one upstream request, one resize, one lookup. The caller
 * keeps the cache; this keeps only what is under way.
 */
export function singleFlight<V>(): (key: string, make: () => Promise<V>) => Promise<V> {
	const underWay = new Map<string, Promise<V>>()
	return (key, make) => {
		let pending = underWay.get(key)
		if (!pending) {
			pending = make().finally(() => underWay.delete(key))
			underWay.set(key, pending)
		}
		return pending
	}
}

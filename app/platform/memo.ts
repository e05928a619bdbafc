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

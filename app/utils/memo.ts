/**
 * A function of one header value with its answers remembered for the most
 * recent distinct values: browsers send the same few Accept-Encoding and
 * Accept-Language strings, and parsing them was a visible part of serving a
 * cached page. At most `max` answers are kept (then it starts over).
 */
export function memoizeByString<T>(fn: (input: string) => T, max = 256): (input: string) => T {
	const seen = new Map<string, T>()
	return (input) => {
		let value = seen.get(input)
		if (value === undefined) {
			value = fn(input)
			if (seen.size >= max) seen.clear()
			seen.set(input, value)
		}
		return value
	}
}

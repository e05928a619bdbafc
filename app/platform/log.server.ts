// Structured log lines: one JSON object per line, `event` first (e.g. email/sent).
type Fields = Record<string, unknown>

function write(level: 'info' | 'warn' | 'error', event: string, fields: Fields) {
	const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...fields })
	if (level === 'error') console.error(line)
	else console.log(line)
}

export const log = {
	info: (event: string, fields: Fields = {}) => write('info', event, fields),
	warn: (event: string, fields: Fields = {}) => write('warn', event, fields),
	error: (event: string, fields: Fields = {}) => write('error', event, fields),
}

/**
 * Message and name of an error, never its stack, for log lines. A query
 * builder's wrapper ("Failed query: <sql> params: <values>") is replaced by
 * the driver's error it wraps, so values never reach the log.
 */
export function describeError(error: unknown): string {
	if (!(error instanceof Error)) return String(error)
	if (error.message.startsWith('Failed query:'))
		return error.cause instanceof Error ? describeError(error.cause) : `${error.name}: query failed`
	// A wrapped failure (fetch's "fetch failed", a library's "Failed to send request") says little
	// without what it wraps: the refused connection, the reset socket.
	const cause = error.cause instanceof Error ? ` (cause: ${describeError(error.cause)})` : ''
	return `${error.name}: ${error.message}${cause}`
}

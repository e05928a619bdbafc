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

/** Message and name of an error, never its stack, for log lines. */
export function describeError(error: unknown) {
	return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

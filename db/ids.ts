import { createHash, randomUUID } from 'node:crypto'

export const newId = () => randomUUID()

/**
 * The id of a row a form's one-time key names (a quiz attempt, a hand-in): the same key of the same
 * learner and entry is always the same id, so a form sent again finds the row it already made.
 * `kind` keeps the ids of different rows apart. Without a well-formed key, undefined (a fresh id).
 */
export function idFromFormKey(
	kind: string,
	scope: { tenantId: string; userId: string },
	courseSlug: string,
	entrySlug: string,
	key: unknown,
) {
	if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(key)) return undefined
	const hex = createHash('sha256')
		.update(`${kind}:${scope.tenantId}:${scope.userId}:${courseSlug}:${entrySlug}:${key}`)
		.digest('hex')
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

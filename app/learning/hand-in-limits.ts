/**
 * The documented hand-in limits (decision 0027, README): shared by the server entry, which
 * refuses larger bodies before reading them, the hand-in reader and the form that states them.
 */
export const HAND_IN_LIMITS = {
	maxFiles: 3,
	maxFileBytes: 10_000_000,
	maxTextChars: 20_000,
	maxLinkChars: 2_000,
} as const

/** Every file at its limit plus the text fields and the multipart framing. */
export const HAND_IN_MAX_BODY_BYTES = HAND_IN_LIMITS.maxFiles * HAND_IN_LIMITS.maxFileBytes + 1024 * 1024

/** A multipart form body (the only kind that carries files), by its Content-Type. */
export function isMultipart(contentType: string | null | undefined) {
	return /^multipart\/form-data/i.test(contentType ?? '')
}

/**
 * The one page that takes hand-ins: an entry (the locale prefix already removed). The server entry
 * cannot tell an assignment from a lesson; the entry's action refuses a multipart body to any
 * other entry before reading it.
 */
export function isHandInPath(path: string) {
	return /^\/learn\/course\/[^/]+\/entry\/[^/]+$/.test(path)
}

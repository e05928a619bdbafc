import { hash, verify } from '@node-rs/argon2'

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string) {
	return hash(password, OPTIONS)
}

/** False for an empty stored hash (OAuth-only users) or any mismatch. */
export async function verifyPassword(password: string, storedHash: string | null) {
	if (!storedHash) return false
	try {
		return await verify(storedHash, password)
	} catch {
		return false
	}
}

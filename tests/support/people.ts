import { hashPassword } from '#app/accounts/password.server.ts'
import type { Database } from '#db/client.ts'
import type { User, UserInput } from '#db/users.ts'
import { DEMO_PASSWORD } from './env.ts'
import { createUser } from './repository.ts'
import type { Browser } from './client.ts'

// The one set-up of a person in the tests (issue 50): stored as sign-up stores them, then, where a
// test needs it, signed in through the sign-in form like a browser.

export interface PersonInput extends Omit<UserInput, 'password_hash' | 'email_verified_at'> {
	/** Hashed as sign-up hashes it; DEMO_PASSWORD unless given. */
	password?: string
	/** The address is confirmed (now) unless false. */
	verified?: boolean
}

// Argon2 is slow on purpose: each password is hashed once per test process (salted once, which a test may share).
const hashes = new Map<string, Promise<string>>()
const hashOf = (password: string) => hashes.get(password) ?? hashes.set(password, hashPassword(password)).get(password)!

/** A new person with a password; throws when the (tenant, email) is taken. */
export async function addPerson(db: Database, { password = DEMO_PASSWORD, verified = true, ...input }: PersonInput) {
	const user: User | undefined = await createUser(db, {
		...input,
		password_hash: await hashOf(password),
		email_verified_at: verified ? new Date() : null,
	})
	if (!user) throw new Error(`${input.email} exists already`)
	return user
}

interface SignsIn {
	db: Database
	signIn(email: string, host?: string, password?: string): Promise<Browser>
}

/** A new person (addPerson), signed in on `host`: their row and their browser. */
export async function signedInPerson(stack: SignsIn, input: PersonInput, host?: string) {
	const user = await addPerson(stack.db, input)
	return { user, b: await stack.signIn(user.email, host, input.password ?? DEMO_PASSWORD) }
}

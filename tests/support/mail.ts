import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
	to: string
	subject: string
	text: string
	html: string
	/** Header fields as sent, by lower-case name (the last of a name wins): List-Unsubscribe and the like. */
	headers: Record<string, string>
}

/**
 * How long a test waits for a message by default: mail goes out from the job queue, whose worker
 * polls (JOB_POLL_SECONDS, 0.5 s in tests) and may be behind a few other jobs.
 */
const MAIL_WAIT_MS = 15_000

/**
 * A real SMTP server on loopback that keeps every delivered message. It can go down and come back
 * on the same port (an outage: connections refused), and hold messages (an SMTP server that has the
 * whole message but has not said yes yet: the sender is stuck in DATA until `release()`; a sender
 * that goes away meanwhile delivered nothing).
 */
export async function startMailSink(onMail?: (mail: ReceivedMail) => void) {
	const messages: ReceivedMail[] = []
	let holding = false
	/** How many more messages to hold while holding (holdNext: one). */
	let holdLeft = Infinity
	const held = new Map<string, { mail: ReceivedMail; accept: () => void }>()
	const deliver = (mail: ReceivedMail) => {
		messages.push(mail)
		onMail?.(mail)
	}
	const create = () =>
		new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS'],
			logger: false,
			// Down means down: open sessions are cut at once, not after the default 30 s.
			closeTimeout: 50,
			onData(stream, session, callback) {
				simpleParser(stream)
					.then((parsed) => {
						const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to
						const mail = {
							to: to?.value[0]?.address ?? '',
							subject: parsed.subject ?? '',
							text: parsed.text ?? '',
							html: String(parsed.html ?? ''),
							headers: Object.fromEntries(
								parsed.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
							),
						}
						if (holding) {
							holdLeft -= 1
							if (holdLeft <= 0) holding = false
							held.set(session.id, {
								mail,
								accept: () => {
									deliver(mail)
									callback()
								},
							})
							return
						}
						deliver(mail)
						callback()
					})
					.catch(callback)
			},
			onClose(session) {
				// The sender left before the message was accepted: it was not delivered.
				held.delete(session.id)
			},
		})
	let server = create()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.server.address() as { port: number }).port
	let up = true
	const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
	return {
		port,
		messages,
		/** Waits for the newest message to `to` (after `since` messages to it) and returns it. */
		async waitFor(to: string, since = 0, timeoutMs = MAIL_WAIT_MS) {
			const deadline = Date.now() + timeoutMs
			while (Date.now() < deadline) {
				const mine = messages.filter((m) => m.to === to)
				if (mine.length > since) return mine[mine.length - 1]
				await new Promise((r) => setTimeout(r, 25))
			}
			throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
		},
		count: (to: string) => messages.filter((m) => m.to === to).length,
		/** The server is down: its port refuses connections until `up()`. */
		async down() {
			if (!up) return
			up = false
			await close()
		},
		/** Back on the same port. */
		async up() {
			if (up) return
			server = create()
			await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
			up = true
		},
		/** From now on messages are held unanswered (the next `count` of them); resolves with the first one held. */
		async hold(timeoutMs = MAIL_WAIT_MS, count = Infinity) {
			holding = true
			holdLeft = count
			const deadline = Date.now() + timeoutMs
			while (held.size === 0) {
				if (Date.now() > deadline) throw new Error(`no message reached the held sink within ${timeoutMs} ms`)
				await new Promise((r) => setTimeout(r, 25))
			}
			return [...held.values()][0].mail
		},
		/** Messages held now (a sender that went away takes its own with it). */
		heldCount: () => held.size,
		/** Accepts what is held (from senders still connected) and stops holding. */
		release() {
			holding = false
			for (const { accept } of held.values()) accept()
			held.clear()
		},
		close: async () => {
			if (up) await close()
		},
	}
}

export type MailSink = Awaited<ReturnType<typeof startMailSink>>

/** The first link in a message to a path under `prefix`, as a path. */
export function linkIn(mail: ReceivedMail, prefix: string) {
	const match = new RegExp(`https?://[^\\s"]+(${prefix.replace(/\//g, '\\/')}[^\\s"<]+)`).exec(mail.text)
	if (!match) throw new Error(`no ${prefix} link in: ${mail.text}`)
	return match[1]
}

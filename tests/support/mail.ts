import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
	to: string
	subject: string
	text: string
	html: string
}

/** A real SMTP server on loopback that keeps every delivered message. */
export async function startMailSink(onMail?: (mail: ReceivedMail) => void) {
	const messages: ReceivedMail[] = []
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, _session, callback) {
			simpleParser(stream)
				.then((parsed) => {
					const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to
					const mail = {
						to: to?.value[0]?.address ?? '',
						subject: parsed.subject ?? '',
						text: parsed.text ?? '',
						html: String(parsed.html ?? ''),
					}
					messages.push(mail)
					onMail?.(mail)
					callback()
				})
				.catch(callback)
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.server.address() as { port: number }).port
	return {
		port,
		messages,
		/** Waits for the newest message to `to` (after `since` messages to it) and returns it. */
		async waitFor(to: string, since = 0, timeoutMs = 5000) {
			const deadline = Date.now() + timeoutMs
			while (Date.now() < deadline) {
				const mine = messages.filter((m) => m.to === to)
				if (mine.length > since) return mine[mine.length - 1]
				await new Promise((r) => setTimeout(r, 25))
			}
			throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
		},
		count: (to: string) => messages.filter((m) => m.to === to).length,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

/** The first link in a message to a path under `prefix`, as a path. */
export function linkIn(mail: ReceivedMail, prefix: string) {
	const match = new RegExp(`https?://[^\\s"]+(${prefix.replace(/\//g, '\\/')}[^\\s"<]+)`).exec(mail.text)
	if (!match) throw new Error(`no ${prefix} link in: ${mail.text}`)
	return match[1]
}

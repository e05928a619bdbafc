// `npm start`'s local mail server: a real SMTP server on loopback (SMTP_PORT)
// that prints every message it receives, so the demo's sign-in links,
// verification and reset mails can be followed while the app runs in
// production mode (which never writes mail to its own console).
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

const port = Number(process.env.SMTP_PORT ?? 2525)
const server = new SMTPServer({
	authOptional: true,
	disabledCommands: ['STARTTLS'],
	logger: false,
	onData(stream, _session, callback) {
		simpleParser(stream)
			.then((mail) => {
				const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text
				console.log(`\n--- email to ${to}: ${mail.subject}\n${mail.text ?? ''}\n---\n`)
				callback()
			})
			.catch(callback)
	},
})
server.listen(port, '127.0.0.1', () => console.log(`mail console listening on smtp://127.0.0.1:${port}`))
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)))

import nodemailer, { type Transporter } from 'nodemailer'
import { Resend } from 'resend'
import type { Env } from './env.server.ts'
import { describeError, log } from './log.server.ts'

export interface Email {
	to: string
	subject: string
	text: string
	html: string
	/** For log lines: verification, reset, magic_link, email_change, invitation. */
	kind: string
	/** Extra header fields (a reminder's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058), given to every transport. */
	headers?: Record<string, string>
	/**
	 * The same for every attempt to send this mail (a job's: `<job id>.<n>`, decision 0058): its SMTP
	 * Message-ID and Resend's idempotency key, so a receiver can tell a repeat from a new mail.
	 */
	key?: string
}

interface Transport {
	name: string
	send(email: Email, from: string): Promise<void>
}

/**
 * Transports in order: the primary provider (Resend) when RESEND_API_KEY is
 * set, SMTP when SMTP_HOST is set, and outside production the console. Each
 * attempt logs email/sent or email/failed; a failure falls through to the
 * next transport and never reaches the user's response.
 */
export function createMailer(env: Env) {
	const transports: Transport[] = []
	if (env.RESEND_API_KEY) {
		const resend = new Resend(env.RESEND_API_KEY)
		transports.push({
			name: 'resend',
			async send(email, from) {
				const { error } = await resend.emails.send(
					{
						from,
						to: email.to,
						subject: email.subject,
						text: email.text,
						html: email.html,
						...(email.headers ? { headers: email.headers } : {}),
					},
					email.key ? { idempotencyKey: email.key } : undefined,
				)
				if (error) throw new Error(`${error.name}: ${error.message}`)
			},
		})
	}
	if (env.SMTP_HOST) {
		const smtp: Transporter = nodemailer.createTransport({
			host: env.SMTP_HOST,
			port: env.SMTP_PORT ?? 587,
			secure: env.SMTP_PORT === 465,
			auth: env.SMTP_USER ? { user: env.SMTP_USER, pass: env.SMTP_PASSWORD ?? '' } : undefined,
			connectionTimeout: 5_000,
			greetingTimeout: 5_000,
			socketTimeout: 10_000,
		})
		transports.push({
			name: 'smtp',
			async send(email, from) {
				await smtp.sendMail({
					from,
					to: email.to,
					subject: email.subject,
					text: email.text,
					html: email.html,
					headers: email.headers,
					...(email.key ? { messageId: `<${email.key}@${senderDomain(from)}>` } : {}),
				})
			},
		})
	}
	if (env.NODE_ENV !== 'production' && transports.length === 0) {
		transports.push({
			name: 'console',
			async send(email) {
				console.log(`\n--- email to ${email.to}: ${email.subject}\n${email.text}\n---\n`)
			},
		})
	}

	return {
		/** Resolves true when some transport accepted the message. Never throws. */
		async send(email: Email) {
			for (const transport of transports) {
				try {
					await transport.send(email, env.EMAIL_FROM)
					log.info('email/sent', { kind: email.kind, transport: transport.name })
					return true
				} catch (error) {
					log.error('email/failed', { kind: email.kind, transport: transport.name, error: describeError(error) })
				}
			}
			return false
		},
	}
}

export type Mailer = ReturnType<typeof createMailer>

/** The domain of a sender address, bare (`noreply@lms.test`) or named (`LMS <noreply@lms.test>`): a Message-ID's right side. */
function senderDomain(from: string) {
	return from.replace(/^.*@/, '').replace(/>$/, '')
}

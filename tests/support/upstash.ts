import { createServer } from 'node:http'
import { createClient } from 'redis'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/**
 * A small Upstash-REST-to-Redis adapter on loopback: `POST /` with a JSON
 * command array and `Authorization: Bearer <token>` runs the command on the
 * real Redis and answers `{ result }` or `{ error }`, as Upstash does.
 */
export async function startUpstashAdapter(token: string) {
	const redis = createClient({ url: REDIS_URL })
	await redis.connect()
	const server = createServer(async (req, res) => {
		const chunks: Buffer[] = []
		for await (const chunk of req) chunks.push(chunk as Buffer)
		const reply = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' })
			res.end(JSON.stringify(body))
		}
		if (req.method !== 'POST' || req.headers.authorization !== `Bearer ${token}`)
			return reply(401, { error: 'Unauthorized' })
		try {
			const command = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[]
			if (!Array.isArray(command) || command.length === 0) return reply(400, { error: 'ERR empty command' })
			reply(200, { result: await redis.sendCommand(command.map(String)) })
		} catch (error) {
			reply(400, { error: error instanceof Error ? error.message : String(error) })
		}
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as { port: number }
	return {
		url: `http://127.0.0.1:${port}`,
		async close() {
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await redis.quit()
		},
	}
}

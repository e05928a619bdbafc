// The baseline of scenario 1: a bare node:http server that answers each path
// with the status, headers and bytes the app sent for it (recorded by
// bench/run.ts into the JSON file named by argv[2]). Prints its port.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const answers = new Map(
	Object.entries(recorded).map(([path, r]) => {
		const body = Buffer.from(r.body, 'base64')
		return [path, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }]
	}),
)
const server = createServer((req, res) => {
	const answer = answers.get(req.url)
	if (!answer) {
		res.writeHead(404).end()
		return
	}
	res.writeHead(answer.status, answer.headers)
	res.end(answer.body)
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))

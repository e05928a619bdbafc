// A vitest setup file: the app's info lines (a JSON object per request, job and mail) are dropped
// in test processes unless TEST_LOG=info. Each went to vitest's main process over IPC and into CI's
// log (about 7 % of a stack test's CPU, most of a 3 MB log); warnings and errors still print, and a
// test that spies on console.log to read info lines (vi.spyOn) replaces this filter while it spies.
const passOn = console.log.bind(console)
if (process.env.TEST_LOG !== 'info')
	console.log = (...args: unknown[]) => {
		if (typeof args[0] === 'string' && args[0].startsWith('{"level":"info"')) return
		passOn(...args)
	}

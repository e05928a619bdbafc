// pretest: the end-to-end suite runs Debian's Chromium and never downloads a browser.
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(path)) {
	if (process.getuid?.() === 0) {
		console.log('Chromium is missing: installing Debian package chromium…')
		execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
			stdio: 'inherit',
		})
	} else {
		console.error(
			`Chromium not found at ${path}: run "sudo apt-get install -y chromium" (or set CHROMIUM_PATH) and try again.`,
		)
		process.exit(1)
	}
}

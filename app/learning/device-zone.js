// The device's time zone, for a learner who has chosen none (issue 52, decision 0106): learner pages
// ship no React, so this is the dashboard's one script. It posts the zone once to the account page's
// action, which keeps a choice made meanwhile; the dates follow from the next page. Without
// JavaScript nothing is sent and the school's zone stays until the learner picks one.
const tag = document.querySelector('script[data-zone]')
const device = Intl.DateTimeFormat().resolvedOptions().timeZone
if (tag && device && device !== tag.dataset.zone) {
	const body = new URLSearchParams({ intent: 'device-time-zone', timeZone: device })
	void fetch(tag.dataset.action, { method: 'POST', body, credentials: 'same-origin' })
}

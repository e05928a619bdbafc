import script from './device-zone.js?url&no-inline'

/**
 * While the learner has chosen no zone, the small script that sends the one their device reports
 * (./device-zone.js, decision 0106): a module, deferred, the page's only JavaScript.
 */
export function DeviceZone({ chosen, zone }: { chosen: boolean; zone: string }) {
	if (chosen) return null
	return <script type="module" src={script} data-zone={zone} data-action="/learn/account" />
}

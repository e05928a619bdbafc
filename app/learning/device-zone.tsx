import { useRouteLoaderData } from 'react-router'
import script from './device-zone.js?url&no-inline'

/**
 * While the learner has chosen no zone, the small script that sends the one their device reports
 * (./device-zone.js, decision 0106): a module, deferred, the page's only JavaScript. A browser that
 * asks to save data (`Save-Data: on`, the root loader's `saveData`) gets no script at all.
 */
export function DeviceZone({ chosen, zone }: { chosen: boolean; zone: string }) {
	const saveData = (useRouteLoaderData('root') as { saveData?: boolean } | undefined)?.saveData
	if (chosen || saveData) return null
	return <script type="module" src={script} data-zone={zone} data-action="/learn/account" />
}

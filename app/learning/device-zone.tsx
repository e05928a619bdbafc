import { useEffect } from 'react'
import { useFetcher } from 'react-router'

/**
 * While the learner has chosen no zone, the one their device reports (issue 52): sent once to the
 * account page's action, which stores it unless a choice was made meanwhile (a choice on the
 * account page is never overwritten); the page's loaders then run again and its dates follow.
 * Without JavaScript nothing is sent: the tenant's zone stays until the learner picks one.
 */
export function DeviceZone({ chosen, zone }: { chosen: boolean; zone: string }) {
	const fetcher = useFetcher()
	const sent = fetcher.state !== 'idle' || fetcher.data !== undefined
	useEffect(() => {
		if (chosen || sent) return
		const device = Intl.DateTimeFormat().resolvedOptions().timeZone
		if (!device || device === zone) return
		void fetcher.submit({ intent: 'device-time-zone', timeZone: device }, { method: 'post', action: '/learn/account' })
	}, [chosen, sent, zone, fetcher])
	return null
}

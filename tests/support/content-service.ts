import { startCms, type CmsFaults, type CmsStats } from '#cms/server.ts'
import { TEST_SECRETS } from './env.ts'

/**
 * The content service a contract test talks to: the local one (cms/server.ts) in this process,
 * or, when CONTENT_SERVICE_URL is set (its base, ending in /api/v1), one already running, such as
 * Strapi (cms/strapi, CMS_TEST_CONTROLS=true), reached through its test controls `_stats` and
 * `_control`. Key and project: CONTENT_SERVICE_KEY and CONTENT_SERVICE_PROJECT, else the tests'.
 * One contract, two implementations: the tests assert the same of both.
 */
export interface ContentService {
	url: string
	key: string
	project: string
	/** Which implementation answers: `local` or `remote`. */
	kind: 'local' | 'remote'
	stats(): Promise<CmsStats>
	setFaults(faults: Partial<CmsFaults>): Promise<void>
	close(): Promise<void>
}

export async function startContentService(): Promise<ContentService> {
	const key = process.env.CONTENT_SERVICE_KEY || TEST_SECRETS.CMS_API_UUID
	const project = process.env.CONTENT_SERVICE_PROJECT || TEST_SECRETS.CMS_PROJECT_UUID
	const remote = process.env.CONTENT_SERVICE_URL
	if (remote) {
		const url = remote.replace(/\/+$/, '')
		const call = async (path: string, body?: unknown) => {
			const res = await fetch(`${url}${path}`, {
				method: body === undefined ? 'GET' : 'POST',
				headers: { 'x-api-key': key, 'content-type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			})
			if (!res.ok) throw new Error(`${path} answered ${res.status}: is CMS_TEST_CONTROLS=true set on the service?`)
			return res.json()
		}
		return {
			url,
			key,
			project,
			kind: 'remote',
			stats: () => call('/_stats'),
			setFaults: async (faults) => void (await call('/_control', faults)),
			close: async () => void (await call('/_control', { mode: 'ok', delayMs: 0 })),
		}
	}
	const cms = await startCms({ apiKey: key, projectUuid: project })
	return {
		url: cms.url,
		key,
		project,
		kind: 'local',
		stats: async () => structuredClone(cms.stats),
		setFaults: async (faults) => void Object.assign(cms.faults, faults),
		close: cms.close,
	}
}

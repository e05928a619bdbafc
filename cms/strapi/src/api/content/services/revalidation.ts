/**
 * The webhooks that tell the app what changed (src/utils/revalidate.ts: stored with the change, retried
 * until delivered), made on first use from the environment.
 */
import type { Core } from '@strapi/strapi'
import { createRevalidator } from '../../../utils/revalidate'

const revalidation = ({ strapi }: { strapi: Core.Strapi }) => {
	let revalidator: ReturnType<typeof createRevalidator> | undefined
	const get = () =>
		(revalidator ??= createRevalidator({
			urls: (process.env.LMS_APP_URLS ?? '')
				.split(',')
				.map((u) => u.trim())
				.filter(Boolean),
			secret: process.env.CMS_WEBHOOK_SECRET ?? '',
			log: strapi.log,
			db: strapi.db,
		}))
	return {
		/** Stores the tags a change moves, in the change's own transaction when it has one. */
		record: (tags: string[]) => get().record(tags),
		/** Sends what is stored now (after a commit). */
		kick: () => get().kick(),
		/** What an earlier run could not deliver goes out now. */
		start: () => get().start(),
		stop: () => revalidator?.stop(),
	}
}

export type Revalidation = ReturnType<typeof revalidation>
export default revalidation

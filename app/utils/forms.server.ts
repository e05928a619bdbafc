import type { Submission } from '@conform-to/react'
import { data } from 'react-router'
import type { RequestContext } from '#app/context.ts'
import type { Policy } from './rate-limit.server.ts'

export const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.'

/**
 * Consumes one attempt of the policy; when exhausted, answers 429 with the
 * form re-rendered and a Retry-After header. Returns null when allowed.
 */
export async function limitForm(ctx: RequestContext, policy: Policy, key: string, submission: Submission<unknown>, hideFields?: string[]) {
	const { allowed, retryAfter } = await ctx.rateLimit.consume(policy, key)
	if (allowed) return null
	return data(
		{ result: submission.reply({ formErrors: [TOO_MANY], hideFields }) },
		{ status: 429, headers: { 'retry-after': String(retryAfter) } },
	)
}

/** The absolute URL of a path on this host (email links). */
export function absoluteUrl(ctx: RequestContext, path: string) {
	return `${ctx.origin}${path}`
}

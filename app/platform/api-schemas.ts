// The schemas of the route contract (app/platform/api-contract.ts): the request bodies and JSON answers
// the route handlers validate with and shape by (each handler imports its own from here), the error
// envelope, and the path and query parameters the operations share.
import { z } from 'zod'
import { ERROR_CODES } from './errors.ts'

export const errorEnvelope = z
	.object({
		error: z.string(),
		code: z.enum(ERROR_CODES),
		issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
	})
	.meta({ id: 'Error', description: 'Every JSON error: `{error, code, issues?}`, code from ERROR_CODES.' })

export const healthResponse = z
	.object({
		status: z.literal('ok'),
		database: z.literal('up'),
		redis: z.enum(['up', 'down']).optional().meta({
			description:
				'Present when REDIS_URL is set. While it is down the rate limits count per process; the service stays ready.',
		}),
	})
	.meta({ id: 'Health' })

export const livenessResponse = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' })

/** Accepted tags (spec, Events 1): course:, entry:, site:, progress: and the exact cms:page-hierarchy. */
const revalidationTag = z
	.string()
	.max(300)
	.regex(
		/^(?:(?:course|entry|site|progress):\S+|cms:page-hierarchy)$/,
		'unsupported tag: use course:, entry:, site:, progress: or cms:page-hierarchy',
	)
	.meta({ id: 'RevalidationTag' })

export const revalidationBody = z
	.union([
		z.strictObject({ tag: revalidationTag }),
		z.strictObject({
			tags: z
				.array(revalidationTag)
				.min(1, 'tags must not be empty')
				.max(100)
				.refine((tags) => new Set(tags).size === tags.length, 'tags must not repeat'),
		}),
	])
	.meta({ id: 'RevalidationRequest' })

export const revalidationResponse = z.object({ revalidated: z.array(z.string()) }).meta({ id: 'RevalidationResponse' })

export const impersonationRequest = z
	.object({ userId: z.string().min(1).max(100) })
	.meta({ id: 'ImpersonationRequest' })

// Path parameters: one segment each.
const slug = z.string().min(1).max(200).meta({ description: 'A content slug.' })
const assetId = z.string().min(1).max(200).meta({ description: 'A content-service asset id.' })

/** The widths an asset proxy resizes images to on request (decision 0018). */
export const IMAGE_WIDTHS = [320, 480, 640, 960, 1280, 1920] as const
export const assetQuery = z.object({
	w: z
		.enum(IMAGE_WIDTHS.map(String) as [string, ...string[]])
		.optional()
		.meta({
			description:
				'A JPEG, PNG or WebP image at most this many pixels wide, in its own format (never enlarged; Range is ignored). Other types are sent unchanged. Any other value: 400.',
		}),
})

export const pathParams = { slug, assetId }

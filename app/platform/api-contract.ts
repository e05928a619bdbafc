// The route contract: every documented route handler, with the zod schemas it
// validates requests with and shapes responses by (app/platform/api-schemas.ts,
// where the handlers import theirs from); scripts/generate-openapi.ts turns this
// list into openapi/openapi.yaml; tests/integration/contract.test.ts calls every
// operation and checks each answer against it.
import { z } from 'zod'
import {
	assetQuery,
	errorEnvelope,
	healthResponse,
	impersonationRequest,
	livenessResponse,
	pathParams,
	revalidationBody,
	revalidationResponse,
} from './api-schemas.ts'
import { API_V1_OPERATIONS } from './api-contract-v1.ts'
import type { ApiOperation, ApiResponse } from './api-contract-types.ts'

export { API_TAGS, type ApiOperation, type ApiResponse } from './api-contract-types.ts'

const { slug, assetId } = pathParams

const error = (description: string): ApiResponse => ({ description, json: errorEnvelope })
/** Every host the service does not serve answers 404 before routing (spec, What the service does 3). */
const UNKNOWN_HOST = 'The host serves no site.'
const binary = (description: string): ApiResponse => ({ description, media: 'application/octet-stream' })
const assetResponses: Record<number, ApiResponse> = {
	200: binary(
		'The file, streamed, with the content service’s Content-Type, Content-Length, ETag, Last-Modified and Accept-Ranges.',
	),
	206: binary('The requested byte range (Range), with Content-Range.'),
	304: { description: 'Not modified (If-None-Match or If-Modified-Since).' },
	400: error('A w other than one of the listed widths.'),
	404: error(`Unknown file, or unknown or unpublished course. Or: ${UNKNOWN_HOST}`),
	416: error('The byte range cannot be satisfied (Content-Range gives the size).'),
	503: error('The content service is unavailable.'),
}
/** A file of a course or of the site, streamed from the content service (decision 0018). */
function assetOperation(
	op: Pick<ApiOperation, 'path' | 'operationId' | 'summary' | 'description'> & {
		params: NonNullable<ApiOperation['params']>
		example: Record<string, string>
	},
): ApiOperation {
	return {
		method: 'get',
		path: op.path,
		operationId: op.operationId,
		tags: ['assets'],
		summary: op.summary,
		description: op.description,
		security: 'public',
		params: op.params,
		query: assetQuery,
		responses: assetResponses,
		example: { params: op.example, expect: 200 },
	}
}

/** A published document's Markdown projection for answer engines (decision 0008); a course may also be gone. */
function markdownOperation(
	op: Pick<ApiOperation, 'path' | 'operationId' | 'summary' | 'description'> & { example: string; gone?: boolean },
): ApiOperation {
	const responses: Record<number, ApiResponse> = {
		200: { description: 'Markdown.', media: 'text/markdown' },
		404: error(`Unknown or unpublished. Or: ${UNKNOWN_HOST}`),
		503: error('The content service is unavailable.'),
	}
	if (op.gone) responses[410] = error('The course was archived after publication.')
	return {
		method: 'get',
		path: op.path,
		operationId: op.operationId,
		tags: ['markdown'],
		summary: op.summary,
		description: op.description,
		security: 'public',
		params: z.object({ slug }),
		responses,
		example: { params: { slug: op.example }, expect: 200 },
	}
}

const OPERATIONS: ApiOperation[] = [
	{
		method: 'get',
		path: '/api/health',
		operationId: 'checkReadiness',
		tags: ['health'],
		summary: 'Readiness: database connectivity probe (Redis reported, not required)',
		description:
			'For load balancers deciding whether to send traffic: 503 while the database does not answer within 1 s. Redis being down is reported in the body but keeps the answer 200, since everything but shared rate limits works without it.',
		security: 'public',
		responses: {
			200: { description: 'The database answered.', json: healthResponse },
			404: error(UNKNOWN_HOST),
			503: error('The database did not answer.'),
		},
		example: { expect: 200 },
	},
	{
		method: 'get',
		path: '/api/health/live',
		operationId: 'checkLiveness',
		tags: ['health'],
		summary: 'Liveness: the process answers',
		description:
			'For orchestrators deciding whether to restart the process: 200 whenever it can answer at all, on any host, whatever the database and Redis do (nothing outside the process is asked, decision 0035).',
		security: 'public',
		responses: {
			200: { description: 'The process is alive.', json: livenessResponse },
		},
		example: { expect: 200 },
	},
	{
		method: 'get',
		path: '/api/favicon',
		operationId: 'getFavicon',
		tags: ['images'],
		summary: 'The host’s favicon (also at /favicon.ico)',
		description:
			'The site document’s favicon as a 32x32 PNG in an ICO container, or the static fallback: a missing favicon or a failed retrieval is never an error.',
		security: 'public',
		responses: {
			200: { description: 'The icon (Cache-Control: public, max-age=31536000, immutable).', media: 'image/x-icon' },
			404: error(UNKNOWN_HOST),
		},
		example: { expect: 200 },
	},
	{
		method: 'get',
		path: '/api/avatar',
		operationId: 'getAvatar',
		tags: ['images'],
		summary: 'The signed-in user’s picture',
		description:
			'A 302 to the linked identity provider’s picture, else an SVG of the initials in the site’s theme colour. Cached privately for 300 s, with ETag.',
		security: 'session',
		responses: {
			200: { description: 'Generated initials image.', media: 'image/svg+xml' },
			302: { description: 'Redirect to the identity provider’s picture.' },
			304: { description: 'Not modified (If-None-Match).' },
			401: error('No session.'),
			404: error(UNKNOWN_HOST),
		},
		example: { signedInAs: 'learner@acme.test', expect: 200 },
	},
	{
		method: 'get',
		path: '/api/files/{fileId}',
		operationId: 'downloadSubmissionFile',
		tags: ['files'],
		summary: 'A file handed in with an assignment, as a download',
		description:
			'For the learner who handed it in and the course’s staff (assigned course admins, tenant and super admins); anyone else gets the same 404 as for an unknown id. Sent with `Content-Disposition: attachment`, the type the server decided from the file’s bytes, `X-Content-Type-Options: nosniff` and a sandboxing CSP (decision 0027). Rate limit 120 per minute per user (decision 0030).',
		security: 'session',
		params: z.object({ fileId: z.string().max(64) }),
		responses: {
			200: {
				description: 'The file’s bytes (Cache-Control: private, no-store; Accept-Ranges: bytes).',
				media: 'application/octet-stream',
			},
			206: binary(
				'One byte range (Range, honoured only with no If-Range or the file’s ETag in it), with Content-Range. Several ranges, or a Range that is not one byte range, get the whole file (200).',
			),
			401: error('No session.'),
			416: error(
				'The range starts past the end of the file, or asks for its last 0 bytes (Content-Range: bytes */size).',
			),
			404: error('No such file, or not one this user may download.'),
			429: error('Rate limit exhausted (Retry-After).'),
		},
	},
	{
		method: 'post',
		path: '/api/cms/revalidate',
		operationId: 'revalidateContent',
		tags: ['webhooks'],
		summary: 'Content invalidation webhook',
		description:
			'Requires CMS_WEBHOOK_SECRET as `Authorization: Bearer <secret>` or in `x-cms-webhook-secret`. Rate limit 60 per minute per IP. A `site:<host>` tag also invalidates the content of the site that host serves.',
		security: 'webhook',
		refusesGet: true,
		body: { media: 'application/json', schema: revalidationBody },
		responses: {
			200: { description: 'The tags were revalidated.', json: revalidationResponse },
			401: error('Missing or wrong secret.'),
			404: error(UNKNOWN_HOST),
			413: error('Body larger than 64 KiB.'),
			422: error('Malformed JSON, empty body, empty array, duplicate tags or unsupported prefix.'),
			429: error('Rate limit exhausted (Retry-After).'),
		},
		example: { body: { tags: ['course:intro-to-web', 'cms:page-hierarchy'] }, expect: 200 },
	},
	assetOperation({
		path: '/api/cms/courses/{courseSlug}/assets/{assetId}',
		operationId: 'getCourseAsset',
		summary: 'A published course’s asset, streamed',
		description:
			"Streams a file of a published course from the content service, honouring conditional and Range requests. An unknown or unpublished course answers 404 whatever the asset. With `w`, an image is resized (decision 0018). Only raster images (PNG, JPEG, GIF, WebP, AVIF), audio and video are shown inline, with the type their bytes have; anything else (PDF, text, SVG, HTML …) is an attachment of a type decided from its bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox` (decision 0049).",
		params: z.object({ courseSlug: slug, assetId }),
		example: { courseSlug: 'intro-to-web', assetId: 'http-diagram' },
	}),
	assetOperation({
		path: '/api/cms/courses/{courseSlug}/assets/{assetId}/download',
		operationId: 'downloadCourseAsset',
		summary: 'A published course’s asset as a download (Content-Disposition: attachment)',
		description:
			'The same file as getCourseAsset, sent with `Content-Disposition: attachment` so that browsers save it, sandboxed and never sniffed (decision 0049). An unknown or unpublished course answers 404 whatever the asset.',
		params: z.object({ courseSlug: slug, assetId }),
		example: { courseSlug: 'intro-to-web', assetId: 'http-diagram' },
	}),
	assetOperation({
		path: '/api/cms/site/assets/{assetId}',
		operationId: 'getSiteAsset',
		summary: 'An asset of the host’s site, streamed',
		description:
			"Streams a file of the site the host serves (icons, images of pages and posts) from the content service, honouring conditional and Range requests. With `w`, an image is resized (decision 0018). Only raster images (PNG, JPEG, GIF, WebP, AVIF), audio and video are shown inline, with the type their bytes have; anything else (PDF, text, SVG, HTML …) is an attachment of a type decided from its bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox` (decision 0049).",
		params: z.object({ assetId }),
		example: { assetId: 'acme-icon' },
	}),
	assetOperation({
		path: '/api/cms/site/assets/{assetId}/download',
		operationId: 'downloadSiteAsset',
		summary: 'An asset of the host’s site as a download (Content-Disposition: attachment)',
		description:
			'The same file as getSiteAsset, sent with `Content-Disposition: attachment` so that browsers save it, sandboxed and never sniffed (decision 0049).',
		params: z.object({ assetId }),
		example: { assetId: 'acme-icon' },
	}),
	markdownOperation({
		path: '/api/aeo/markdown/{slug}',
		operationId: 'getPageMarkdown',
		summary: 'A published top-level page as Markdown (also at /<slug>.md)',
		description:
			'The Markdown projection of a published top-level page of the host’s site, for answer engines and readers of plain text. A page that is not published answers 404.',
		example: 'about',
	}),
	markdownOperation({
		path: '/api/aeo/markdown/blog/{slug}',
		operationId: 'getBlogPostMarkdown',
		summary: 'A published blog post as Markdown (also at /blog/<slug>.md)',
		description:
			'The Markdown projection of a published blog post of the host’s site. A post that is not published answers 404.',
		example: 'welcome',
	}),
	markdownOperation({
		path: '/api/aeo/markdown/learn/course/{slug}',
		operationId: 'getCourseMarkdown',
		summary: 'A published course landing as Markdown (also at /learn/course/<slug>.md); never entry content',
		description:
			'The Markdown projection of a published course’s public landing page: summary, description, price and outline, never the content of its entries, which needs an enrollment. A course archived after publication answers 410.',
		example: 'intro-to-web',
		gone: true,
	}),
	{
		method: 'post',
		path: '/api/admin/impersonate/start',
		operationId: 'startImpersonation',
		tags: ['impersonation'],
		summary: 'Start impersonating a user (super_admin, on the user’s tenant host)',
		description:
			'Mints a one-time proof through the consumed-token path, sets the target’s session and the signed HTTP-only cookie `__impersonator_uid`, and redirects (303) to the target’s landing page. Audited as auth.impersonate.start.',
		security: 'session',
		refusesGet: true,
		body: { media: 'application/x-www-form-urlencoded', schema: impersonationRequest },
		responses: {
			303: { description: 'Now signed in as the target.' },
			400: error('Not on a tenant host, or the target is deactivated.'),
			401: error('No session.'),
			403: error('Not a super_admin.'),
			404: error(`No such user on this tenant. Or: ${UNKNOWN_HOST}`),
		},
		example: { body: { userId: 'nobody' }, expect: 401 },
	},
	{
		method: 'post',
		path: '/api/admin/impersonate/stop',
		operationId: 'stopImpersonation',
		tags: ['impersonation'],
		summary: 'Stop impersonating: back to the original super_admin',
		description:
			'Reads the signed `__impersonator_uid` cookie, restores the super_admin’s session, clears the cookie and redirects (303) to the user’s admin page. Audited as auth.impersonate.stop.',
		security: 'session',
		refusesGet: true,
		responses: {
			303: { description: 'Signed in as the super_admin again.' },
			401: error('No session.'),
			403: error('Not impersonating.'),
			404: error(UNKNOWN_HOST),
		},
		example: { expect: 401 },
	},
	{
		method: 'get',
		path: '/openapi.yaml',
		operationId: 'getOpenApiDocument',
		tags: ['contract'],
		summary: 'This document',
		description:
			'The route contract as OpenAPI 3.0 YAML, generated from app/platform/api-contract.ts and committed (the same on every host).',
		security: 'public',
		responses: {
			200: { description: 'The generated OpenAPI 3.0 YAML.', media: 'application/yaml' },
			// Outside /api/, a request refused before routing gets the branded page, not the envelope.
			404: { description: `${UNKNOWN_HOST} A branded HTML page.`, media: 'text/html' },
		},
		example: { expect: 200 },
	},
]

/** Every documented operation: the routes above, then the REST API's (app/platform/api-contract-v1.ts). */
export const API_OPERATIONS: ApiOperation[] = [...OPERATIONS, ...API_V1_OPERATIONS]

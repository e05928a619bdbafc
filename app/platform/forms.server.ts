import type { Submission, SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { z } from 'zod'
import type { RequestContext } from '#app/context.ts'
import type { Policy } from './rate-limit.server.ts'
import { notAForm } from './errors.ts'

/** A catalogue key, like every message an action returns: the page shows it in its locale. */
export const TOO_MANY = 'common.errors.tooMany'

/**
 * Consumes one attempt of the policy. Exhausted: a 429 answer with a
 * Retry-After header carrying `body` (the action's usual shape with the
 * message); the action returns it. Null when allowed.
 */
export async function limitAction<T extends object>(ctx: RequestContext, policy: Policy, key: string, body: T) {
	const { allowed, retryAfter } = await ctx.rateLimit.consume(policy, key)
	return allowed ? null : data(body, { status: 429, headers: { 'retry-after': String(retryAfter) } })
}

/** limitAction for a conform form: exhausted, the form is re-rendered with the message. */
export function limitForm(
	ctx: RequestContext,
	policy: Policy,
	key: string,
	submission: Submission<unknown>,
	hideFields?: string[],
) {
	return limitAction(ctx, policy, key, { result: submission.reply({ formErrors: [TOO_MANY], hideFields }) })
}

/**
 * The `result` of a refusal before any form was read (an exhausted rate
 * limit, a state that forbids the action): one error for the whole form.
 */
export function formErrorResult(message: string): SubmissionResult<string[]> {
	return { status: 'error', error: { '': [message] } }
}

/**
 * `submission.reply()` for a form told apart by `intent`: the errors of hidden
 * inputs (the intent itself, an id or a value its button carries) have no
 * field to show them beside, so they become the form's errors.
 */
export function replyWithHidden(
	submission: Submission<unknown>,
	hidden: string[],
	options: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] } = {},
) {
	const errors = submission.status === 'error' ? submission.error : null
	const raised = hidden.flatMap((name) => errors?.[name] ?? [])
	return submission.reply({ ...options, formErrors: [...(options.formErrors ?? []), ...new Set(raised)] })
}

/**
 * The intent a post names, read through its submission before the schema judged it: which limit
 * counts a malformed post too, or which form a refusal is shown beside. Everything else branches
 * on `submission.value.intent` once the post is valid (decision 0020).
 */
export function postedIntent(submission: Submission<unknown>) {
	const { intent } = submission.payload
	return typeof intent === 'string' ? intent : null
}

/** The first message of an invalid submission, for pages that show one error beside the form it belongs to. */
export function firstError(submission: Submission<unknown>) {
	const errors = submission.status === 'error' ? submission.error : null
	return Object.values(errors ?? {}).find((messages) => messages?.length)?.[0] ?? null
}

/** The absolute URL of a path on this host (email links). */
export function absoluteUrl(ctx: Pick<RequestContext, 'origin'>, path: string) {
	return `${ctx.origin}${path}`
}

/**
 * The posted form. A body that is not a form (JSON, plain text, multipart
 * without a boundary, no Content-Type) answers 400 instead of failing the
 * request with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
	try {
		return await request.formData()
	} catch {
		throw notAForm()
	}
}

/** The field a destructive action's second step carries (askToConfirm). */
export const confirmed = { confirmed: z.literal('yes').optional() }

/** What a page needs to ask before a destructive action: catalogue keys, their values, the fields to post again. */
export interface Confirmation {
	question: string
	button: string
	/** Shown as they are (a person's name) */
	values: Record<string, string>
	/** Catalogue keys shown in the page's locale (a role's name) */
	labels?: Record<string, string>
	fields: Record<string, string>
	/** The catalogue key of the way out when "Cancel" would be ambiguous (cancelling an enrollment: "Keep enrollment"). */
	keep?: string
}

/**
 * A destructive action's first step: nothing is done yet. The page shows the question and a form
 * that posts the same fields again with `confirmed=yes` (<ConfirmStep>); a plain POST works without
 * JavaScript, and a request without the confirmation never changes anything.
 */
export function askToConfirm(confirmation: Confirmation) {
	return { confirm: confirmation }
}

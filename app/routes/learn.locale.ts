import { redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { localePath, splitLocalePath, LOCALES } from '#app/i18n/locales.ts'
import { safeCallbackUrl } from '#app/accounts/auth.server.ts'
import { readForm } from '#app/platform/forms.server.ts'
import { localeCookie } from '#app/platform/locale.server.ts'
import { getSession } from '#app/accounts/session.server.ts'
import { setAccountLocale } from '#app/accounts/account.server.ts'
import type { Route } from './+types/learn.locale.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'

// The target page (redirectTo) is checked by safeCallbackUrl, not by the schema: whatever it is, the answer goes back.
const schema = z.object({ locale: z.enum(LOCALES) })

/**
 * The locale switcher's form (in every page's footer). Remembers the choice
 * in the lms_locale cookie and, for a signed-in user, in users.locale, then
 * returns to the same page under the new locale's prefix. A plain form post,
 * so it works without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const submission = parseWithZod(await readForm(request), { schema })
	const back = safeCallbackUrl(submission.payload.redirectTo) ?? '/'
	// An unknown locale changes nothing: back to the same page.
	if (submission.status !== 'success') return redirect(back, 303)
	const { locale } = submission.value
	const session = getSession(context)
	if (session && session.user.locale !== locale) await setAccountLocale(ctx, session.user.id, locale)
	const url = new URL(back, 'http://same.origin')
	// Checked again after the prefix is swapped: the redirect is what must stay on this origin.
	const target =
		safeCallbackUrl(localePath(locale, splitLocalePath(url.pathname).path) + url.search) ?? localePath(locale, '/')
	return redirect(target, {
		status: 303,
		headers: { 'set-cookie': localeCookie(locale, ctx.origin.startsWith('https:')) },
	})
}

export function loader() {
	return redirect('/')
}

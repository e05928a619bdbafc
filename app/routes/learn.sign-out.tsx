import { Form, redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { metaI18n, useI18n } from '#app/i18n/index.ts'
import { localePath } from '#app/i18n/locales.ts'
import { impersonatorCookie } from '#app/admin/admin.server.ts'
import { endSession, getSession } from '#app/accounts/session.server.ts'
import { Submit } from '#app/ui/feedback.tsx'
import type { Route } from './+types/learn.sign-out.ts'
import { withNotice } from '#app/platform/notices.ts'

export function loader({ context }: Route.LoaderArgs) {
	if (!getSession(context)) throw redirect(localePath(getRequestContext(context).locale, '/'))
	return null
}

/** Ends this session on the server (its cookie signs nobody in again) and forgets any impersonation marker. */
export async function action({ context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	const headers = new Headers()
	headers.append('set-cookie', await endSession(ctx, getSession(context)))
	headers.append('set-cookie', await impersonatorCookie(ctx).serialize('', { maxAge: 0 }))
	return redirect(localePath(ctx.locale, withNotice('/', 'signedOut')), { headers })
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaI18n(matches).m.accounts.signOut.title }]

export default function SignOut() {
	const t = useI18n()
	const text = t.m.accounts.signOut
	return (
		<section className="narrow">
			<h1>{text.heading}</h1>
			<p>{text.body}</p>
			<div className="actions">
				<Form method="post">
					<Submit>{text.submit}</Submit>
				</Form>
				<a className="button-secondary" href={t.href('/learn/dashboard')}>
					{text.dashboard}
				</a>
				<a href={t.href('/')}>{text.cancel}</a>
			</div>
		</section>
	)
}

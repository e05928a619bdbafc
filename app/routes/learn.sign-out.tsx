import { Form, redirect } from 'react-router'
import { getRequestContext } from '#app/context.ts'
import { destroySessionCookie, getSession } from '#app/utils/session.server.ts'
import { Submit } from '#app/components/form.tsx'
import type { Route } from './+types/learn.sign-out.ts'

export function loader({ context }: Route.LoaderArgs) {
	if (!getSession(context)) throw redirect('/')
	return null
}

export async function action({ context }: Route.ActionArgs) {
	const ctx = getRequestContext(context)
	return redirect('/', { headers: { 'set-cookie': await destroySessionCookie(ctx) } })
}

export const meta: Route.MetaFunction = () => [{ title: 'Sign out' }]

export default function SignOut() {
	return (
		<section className="narrow">
			<h1>Sign out?</h1>
			<p>You will need to sign in again to continue your courses on this device.</p>
			<div className="actions">
				<Form method="post">
					<Submit>Sign out</Submit>
				</Form>
				<a className="button-secondary" href="/learn/dashboard">
					Back to my dashboard
				</a>
				<a href="/">Cancel</a>
			</div>
		</section>
	)
}

import { useEffect, useRef } from 'react'
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigation, useRouteLoaderData } from 'react-router'
import { getRequestContext } from './context.ts'
import { destroySessionCookie, getSession, readSession, sessionContext } from './utils/session.server.ts'
import { loadMenu, loadSiteChrome } from './utils/site.server.ts'
import { impersonatorOf } from './utils/admin.server.ts'
import { isLocale } from './utils/locale.server.ts'
import appCss from './styles/app.css?url'
import type { Route } from './+types/root.ts'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: appCss }]

/**
 * Reads the session once per request for every route below, pages and
 * resource routes alike. A session that fails re-validation (token version,
 * tenant, deactivation) is treated as signed out and its cookie cleared.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }, next) => {
		const ctx = getRequestContext(context)
		const read = await readSession(ctx, request)
		context.set(sessionContext, read.state === 'valid' ? read.session : null)
		if (read.state === 'valid' && isLocale(read.session.user.locale)) ctx.locale = read.session.user.locale
		const response = await next()
		if (read.state === 'rejected' && !response.headers.get('set-cookie')?.includes('lms_session=')) {
			const headers = new Headers(response.headers)
			headers.append('set-cookie', await destroySessionCookie(ctx))
			return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
		}
		return response
	},
]

export async function loader({ context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const [site, menu] = await Promise.all([loadSiteChrome(ctx), loadMenu(ctx)])
	const session = getSession(context)
	return {
		locale: ctx.locale,
		site,
		isApex: ctx.tenant === null,
		origin: ctx.origin,
		menu,
		user: session ? { name: session.claims.name, role: session.claims.role } : null,
		impersonating: session && (await impersonatorOf(ctx, request)) ? session.claims.name : null,
	}
}

export function Layout({ children }: { children: React.ReactNode }) {
	const data = useRouteLoaderData<typeof loader>('root')
	const site = data?.site
	const style = site
		? ({ '--brand': site.themeColor, '--on-brand': site.onThemeColor } as React.CSSProperties)
		: undefined
	return (
		<html lang={data?.locale ?? 'en'}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				{site ? <meta name="theme-color" content={site.themeColor} /> : null}
				<Meta />
				<Links />
			</head>
			<body style={style}>
				<a className="skip-link" href="#main">
					Skip to content
				</a>
				{data?.impersonating ? (
					<div className="banner banner-impersonation" role="status">
						<form method="post" action="/api/admin/impersonate/stop" className="wrap">
							{`You are signed in as ${data.impersonating} (impersonation). `}
							<button type="submit" className="link-button">
								Stop impersonating
							</button>
						</form>
					</div>
				) : null}
				<header className="site-header">
					<div className="wrap">
						<a className="site-name" href="/">
							{site?.name ?? 'Open LMS'}
						</a>
						<nav aria-label="Main">
							{data && !data.isApex ? <a href="/learn">Courses</a> : null}
							{data?.menu.map((item) => (
								<a key={item.slug} href={`/${item.slug}`}>
									{item.title}
								</a>
							))}
							{data ? <a href="/blog">Blog</a> : null}
							{data?.user ? (
								<>
									{data.user.role === 'student' ? <a href="/learn/dashboard">Dashboard</a> : <a href="/admin">Admin</a>}
									<a href="/learn/account">Account</a>
									<a href="/learn/sign-out">Sign out</a>
								</>
							) : data ? (
								<a href="/learn/sign-in">Sign in</a>
							) : null}
						</nav>
					</div>
				</header>
				<main id="main" className="wrap">
					{children}
				</main>
				<footer className="site-footer">
					<div className="wrap">{site?.name ?? 'Open LMS'}</div>
				</footer>
				<FocusAfterNavigation />
				<ScrollRestoration />
				<Scripts />
			</body>
		</html>
	)
}

/**
 * Without JavaScript every submission loads a new page and the browser starts
 * at its top. With JavaScript, React Router swaps the page in place, so focus
 * is moved where a new page would put the reader: the first field in error,
 * else the form's error, else the page's heading (announced by screen readers).
 */
function FocusAfterNavigation() {
	const navigation = useNavigation()
	const busy = useRef(false)
	useEffect(() => {
		if (navigation.state !== 'idle') {
			busy.current = true
			return
		}
		if (!busy.current || window.location.hash) return
		busy.current = false
		// Two frames later: conform renders the action's errors in an update of its own.
		let frame = requestAnimationFrame(() => {
			frame = requestAnimationFrame(() => {
				const main = document.getElementById('main')
				const target = main?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? main?.querySelector<HTMLElement>('[role="alert"]') ?? main?.querySelector<HTMLElement>('h1')
				if (!target) return
				if (!target.matches('input, select, textarea, button')) target.tabIndex = -1
				target.focus()
			})
		})
		return () => cancelAnimationFrame(frame)
	}, [navigation.state])
	return null
}

export default function App() {
	return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	let title = 'Something went wrong'
	let message = 'Please try again in a moment.'
	if (isRouteErrorResponse(error)) {
		if (error.status === 404) {
			title = 'Page not found'
			message = 'We could not find that page.'
		} else if (error.status === 410) {
			title = 'No longer available'
			message = 'This content has been retired.'
		} else if (error.status === 503) {
			title = 'Temporarily unavailable'
			message = 'Course content could not be loaded right now. Please try again in a moment.'
		} else if (typeof error.data === 'string' && error.status < 500) {
			message = error.data
		}
	}
	return (
		<section className="notice-page">
			<title>{title}</title>
			<h1>{title}</h1>
			<p>{message}</p>
			<p>
				<a href="/">Go to the home page</a>
			</p>
		</section>
	)
}

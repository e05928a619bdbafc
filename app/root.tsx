import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from 'react-router'
import { getRequestContext } from './context.ts'
import { loadSiteChrome } from './utils/site.server.ts'
import appCss from './styles/app.css?url'
import type { Route } from './+types/root.ts'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: appCss }]

export async function loader({ context }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const site = await loadSiteChrome(ctx)
	return { locale: ctx.locale, site, isApex: ctx.tenant === null }
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
				<header className="site-header">
					<div className="wrap">
						<a className="site-name" href="/">
							{site?.name ?? 'Open LMS'}
						</a>
						{data && !data.isApex ? (
							<nav aria-label="Main">
								<a href="/learn">Courses</a>
							</nav>
						) : null}
					</div>
				</header>
				<main id="main" className="wrap">
					{children}
				</main>
				<footer className="site-footer">
					<div className="wrap">{site?.name ?? 'Open LMS'}</div>
				</footer>
				<ScrollRestoration />
				<Scripts />
			</body>
		</html>
	)
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
			<h1>{title}</h1>
			<p>{message}</p>
			<p>
				<a href="/">Go to the home page</a>
			</p>
		</section>
	)
}

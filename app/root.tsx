import { useContext } from 'react'
import {
	isRouteErrorResponse,
	Links,
	Meta,
	Outlet,
	redirect,
	Scripts,
	ScrollRestoration,
	useMatches,
	useRouteError,
	useRouteLoaderData,
	type UIMatch,
	Link,
	UNSAFE_FrameworkContext,
} from 'react-router'
import { getRequestContext, type RequestContext } from './context.ts'
import { useI18n } from './i18n/index.ts'
import { RedirectNotice } from './ui/feedback.tsx'
import { FocusAfterNavigation, LocaleSwitcher } from './ui/page-chrome.tsx'
import { isLocale, LOCALES, localePath, splitLocalePath, DEFAULT_LOCALE } from './i18n/locales.ts'
import { destroySessionCookie, getSession, readSession, sessionContext } from './accounts/session.server.ts'
import { loadMenu, loadSiteChrome } from './content/site.server.ts'
import { canonicalOrigin } from './platform/tenant.server.ts'
import { roleLanding } from './accounts/auth.server.ts'
import { catalogueModules } from './i18n/catalogue-chunks.server.ts'
import appCss from './styles/app.css?url'
import type { Route } from './+types/root.ts'

// The host's own favicon, icons and manifest (each answered per host from the site document).
export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: appCss },
	{ rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
	{ rel: 'icon', href: '/icon.png?size=192', type: 'image/png', sizes: '192x192' },
	{ rel: 'apple-touch-icon', href: '/apple-icon.png' },
	{ rel: 'manifest', href: '/manifest.webmanifest' },
]

/**
 * Reads the session once per request for every route below, pages and
 * resource routes alike, then finishes the answer; each step is a function below.
 * A session that fails re-validation (token version, tenant, deactivation) is
 * treated as signed out and its cookie cleared.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }, next) => {
		const ctx = getRequestContext(context)
		const read = await readSession(ctx, request)
		context.set(sessionContext, read.state === 'valid' ? read.session : null)
		if (read.state === 'valid') followUserLocale(ctx, request, read.session.user.locale)
		const response = await next()
		const headers = new Headers(response.headers)
		rewriteRedirect(ctx, request, response.status, headers)
		keepPrivateOutOfCaches(headers, read.state === 'valid' || ctx.framedByCms !== undefined)
		// Only the preview's page or the expired link's refusal: a 404 or a 429 behind a good link is not framed.
		if (ctx.framedByCms === 'refusal' || (ctx.framedByCms === 'page' && response.status === 200))
			frameForTheCms(ctx, headers)
		if (read.state === 'rejected') await clearRejectedSession(ctx, headers)
		return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
	},
]

/**
 * Pages only a signed-in user sees are always in the user's locale, under its prefix (a GET under
 * another is redirected); public pages keep an explicit prefix and otherwise follow the user too.
 */
function followUserLocale(ctx: RequestContext, request: Request, userLocale: string) {
	if (!isLocale(userLocale)) return
	const { locale: urlLocale, path } = splitLocalePath(ctx.page.path)
	if (SIGNED_IN_ONLY.test(path)) {
		if ((urlLocale ?? DEFAULT_LOCALE) !== userLocale && request.method === 'GET')
			throw redirect(redirectTarget(ctx, request, localePath(userLocale, path) + ctx.page.search))
		ctx.locale = userLocale
	} else if (!urlLocale) ctx.locale = userLocale
}

/** A redirect's Location without React Router's basename, absolute when it leaves the page's locale. */
function rewriteRedirect(ctx: RequestContext, request: Request, status: number, headers: Headers) {
	const location = headers.get('location')
	if (location && status >= 300 && status < 400)
		headers.set('location', redirectTarget(ctx, request, withoutBasename(ctx, location)))
}

/**
 * Whether a page ships its scripts depends on the data-saver hint (the JavaScript policy below);
 * what a signed-in user is shown, and any answer that sets a session, stays out of every shared or
 * disk cache.
 */
function keepPrivateOutOfCaches(headers: Headers, signedIn: boolean) {
	const type = headers.get('content-type') ?? ''
	if (type.startsWith('text/html')) headers.append('vary', 'Save-Data')
	if (!signedIn && !setsSession(headers)) return
	if (!headers.has('cache-control') || type.startsWith('text/html') || type.startsWith('text/x-script'))
		headers.set('cache-control', 'private, no-store')
}

/**
 * A page a CMS preview link opens is shown in the CMS admin's preview pane: that origin alone may
 * frame it (decision 0100). The server entry then sends no X-Frame-Options, which cannot name one.
 */
function frameForTheCms(ctx: RequestContext, headers: Headers) {
	const policy = headers.get('content-security-policy')
	if (policy && ctx.env.CMS_ADMIN_URL)
		headers.set(
			'content-security-policy',
			policy.replace("frame-ancestors 'none'", `frame-ancestors ${ctx.env.CMS_ADMIN_URL}`),
		)
}

/** A session that failed re-validation: its cookie goes, unless the answer sets a new one. */
async function clearRejectedSession(ctx: RequestContext, headers: Headers) {
	if (!setsSession(headers)) headers.append('set-cookie', await destroySessionCookie(ctx))
}

const setsSession = (headers: Headers) => headers.getSetCookie().some((c) => SESSION_COOKIE.test(c))
const SESSION_COOKIE = /^(?:__Host-)?lms_session=/

// One route table serves every locale: a prefixed locale's pages are served under its prefix as
// React Router's basename (server/services.ts). Our redirect paths carry their locale already.

/** Takes off the basename React Router puts before the path of a redirect from a loader or action. */
function withoutBasename(ctx: RequestContext, location: string) {
	const base = splitLocalePath(ctx.page.path).locale
	if (!base || !new RegExp(`^/${base}(?=[/?#]|$)`).test(location)) return location
	const rest = location.slice(base.length + 1)
	return rest.startsWith('/') ? rest : `/${rest}`
}

/**
 * Where a redirect sends the browser. A data request (a client-side navigation) follows a
 * path under its own basename; one that leaves this page's locale prefix gets an absolute
 * URL, which the browser loads as a new document rather than routing it under the wrong prefix.
 */
function redirectTarget(ctx: RequestContext, request: Request, location: string) {
	if (!location.startsWith('/') || location.startsWith('//') || !new URL(request.url).pathname.endsWith('.data'))
		return location
	const here = splitLocalePath(ctx.page.path).locale
	return splitLocalePath(location.split(/[?#]/)[0]).locale === here ? location : new URL(location, ctx.origin).href
}

/** The account, the dashboard, enrollment, entries and administration (their locale is the user's). */
const SIGNED_IN_ONLY =
	/^\/(?:learn\/(?:dashboard|account)(?:\/|$)|learn\/course\/[^/]+\/(?:enroll$|entry\/)|admin(?:\/|$))/

export async function loader({ context, request }: Route.LoaderArgs) {
	const ctx = getRequestContext(context)
	const [site, menu] = await Promise.all([loadSiteChrome(ctx), loadMenu(ctx)])
	const session = getSession(context)
	return {
		locale: ctx.locale,
		/** This page's path without a locale prefix: the switcher and the hreflang alternates add their own. */
		path: splitLocalePath(ctx.page.path).path,
		search: ctx.page.search,
		site,
		isApex: ctx.tenant === null,
		origin: ctx.origin,
		/** Where search engines should index this page (app/content/seo.ts): the tenant's custom domain, if any. */
		canonicalOrigin: canonicalOrigin(ctx.origin, ctx.tenant, ctx.env.APP_BASE_DOMAIN),
		menu,
		// The header's link to the user's own area: where their role lands after signing in.
		user: session ? { name: session.user.name, role: session.claims.role, home: roleLanding(session.claims) } : null,
		impersonating: session?.impersonator ? session.claims.name : null,
		/** `Save-Data: on` (a data-saver mode): the page without JavaScript, whatever the route says. */
		saveData: request.headers.get('save-data')?.trim().toLowerCase() === 'on',
		/** The message catalogue's chunks the browser loads before hydrating, preloaded with the runtime. */
		catalogueModules: catalogueModules(ctx.locale, ctx.page.path),
	}
}

/**
 * The JavaScript policy (docs/decisions/0019-javascript-policy.md): a page ships
 * its scripts only when one of its routes asks with `handle.scripts` (true, or
 * a function of that route's loader data), it is not an error page, and the
 * browser did not ask to save data. Everything else is HTML and CSS only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's function takes its own loader data
type PageRule = true | ((data: any) => boolean)
export type ScriptsHandle = { scripts: PageRule }

/**
 * Search engines index a page only when its route says so with `handle.indexable` (the public
 * pages, which describe themselves with app/content/seo.ts) and it is not an error page. Every
 * other page (signed-in, private, token and form pages a crawler could reach) says noindex.
 */
export type IndexableHandle = { indexable: PageRule }
/** What a page that is not indexed tells crawlers instead of `noindex` (the catalogue's results: `noindex, follow`). */
export type RobotsHandle = { robots: string }

type PageHandle = Partial<ScriptsHandle & IndexableHandle & RobotsHandle> | undefined
const holds = (rule: PageRule | undefined, data: unknown) => (typeof rule === 'function' ? rule(data) : rule === true)

function usePageScripts(saveData: boolean | undefined) {
	const matches = useMatches() as Array<UIMatch<unknown, PageHandle>>
	const error = useRouteError()
	// Running in the browser means the page shipped them: they stay through client navigations.
	if (typeof document !== 'undefined') return true
	if (saveData || error) return false
	return matches.some(({ handle, loaderData }) => holds(handle?.scripts, loaderData))
}

/** `null` for a page crawlers may index, else what its robots meta says. */
function useRobots() {
	const matches = useMatches() as Array<UIMatch<unknown, PageHandle>>
	const error = useRouteError()
	const page = matches.at(-1)
	if (!error && page !== undefined && holds(page.handle?.indexable, page.loaderData)) return null
	return (!error && page?.handle?.robots) || 'noindex'
}

/**
 * The header's links, in order: what the visitor can reach from every page. A content page's
 * title carries its own language when it is not the page's (an untranslated page's English title).
 */
function navLinks(data: Awaited<ReturnType<typeof loader>> | undefined, m: ReturnType<typeof useI18n>['m']) {
	if (!data) return []
	type NavLink = [to: string, label: string, lang?: string]
	const links: NavLink[] = data.isApex ? [] : [['/learn', m.common.nav.courses]]
	links.push(...data.menu.map((item): NavLink => [`/${item.slug}`, item.title, item.locale]), [
		'/blog',
		m.common.nav.blog,
	])
	if (!data.user) return [...links, ['/learn/sign-in', m.common.nav.signIn]]
	const home: NavLink = [
		data.user.home,
		data.user.home.startsWith('/admin') ? m.common.nav.admin : m.common.nav.dashboard,
	]
	return [...links, home, ['/learn/account', m.common.nav.account], ['/learn/sign-out', m.common.nav.signOut]]
}

/**
 * Every module the page loads, named once at low priority before React Router's own preloads
 * (decision 0103): Chrome fetches module preloads at high priority, beside the stylesheet, so on a
 * slow link they delayed the first paint. The browser finds each already fetching when `<Scripts>`
 * names it again. The list is the one `<Scripts>` preloads: the route manifest (routeDiscovery
 * "initial"), the client entry and its imports, each matched route's modules, plus the message
 * catalogue chunks the client entry imports before hydrating (decision 0076).
 */
function LowPriorityModules({ catalogue }: { catalogue: string[] }) {
	const { manifest } = useContext(UNSAFE_FrameworkContext) ?? {}
	const matches = useMatches()
	if (!manifest) return null
	const hrefs = new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports, ...catalogue])
	for (const match of matches) {
		const route = manifest.routes[match.id]
		const modules = [route?.module, route?.clientActionModule, route?.clientLoaderModule, route?.hydrateFallbackModule]
		for (const href of [...modules, ...(route?.imports ?? [])]) if (href) hrefs.add(href)
	}
	return [...hrefs].map((href) => <link key={href} rel="modulepreload" href={href} fetchPriority="low" />)
}

export function Layout({ children }: { children: React.ReactNode }) {
	const data = useRouteLoaderData<typeof loader>('root')
	const t = useI18n()
	const { m } = t
	const scripts = usePageScripts(data?.saveData)
	const robots = useRobots()
	const indexable = robots === null
	const site = data?.site
	const style = site
		? ({ '--brand': site.themeColor, '--on-brand': site.onThemeColor } as React.CSSProperties)
		: undefined
	const siteName = site?.name ?? m.common.platformName
	return (
		<html lang={t.locale}>
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				{site ? <meta name="theme-color" content={site.themeColor} /> : null}
				{scripts ? <LowPriorityModules catalogue={data?.catalogueModules ?? []} /> : null}
				{/* An indexed page describes itself in its meta (app/content/seo.ts); any other shows the site's summary. */}
				{indexable ? null : <meta name="robots" content={robots} />}
				{!indexable && site?.description ? <meta name="description" content={site.description} /> : null}
				{data && indexable
					? [...LOCALES, 'x-default' as const].map((l) => (
							<link
								key={l}
								rel="alternate"
								hrefLang={l}
								href={data.canonicalOrigin + localePath(l === 'x-default' ? DEFAULT_LOCALE : l, data.path)}
							/>
						))
					: null}
				<Meta />
				<Links />
			</head>
			<body style={style}>
				<a className="skip-link" href="#main">
					{m.common.skipToContent}
				</a>
				{data?.impersonating ? (
					<div className="banner banner-impersonation" role="status">
						<form method="post" action="/api/admin/impersonate/stop" className="wrap">
							{`${t.format(m.common.impersonation.banner, { name: data.impersonating })} `}
							<button type="submit" className="link-button">
								{m.common.impersonation.stop}
							</button>
						</form>
					</div>
				) : null}
				<header className="site-header">
					<div className="wrap">
						<Link
							className="site-name"
							prefetch="intent"
							to={'/'}
							lang={site && site.locale !== t.locale ? site.locale : undefined}
						>
							{siteName}
						</Link>
						<nav aria-label={m.common.nav.label}>
							{navLinks(data, m).map(([to, label, lang]) => (
								<Link key={to} prefetch="intent" to={to} lang={lang && lang !== t.locale ? lang : undefined}>
									{label}
								</Link>
							))}
						</nav>
					</div>
				</header>
				<main id="main" className="wrap">
					{/* A confirmed address lands wherever the learner was going: any page may carry it. */}
					<RedirectNotice accept={['emailConfirmed']} />
					{children}
				</main>
				<footer className="site-footer">
					<div className="wrap">
						<span>{siteName}</span>
						{data ? <LocaleSwitcher redirectTo={data.path + data.search} /> : null}
					</div>
				</footer>
				{scripts ? (
					<>
						<FocusAfterNavigation />
						<ScrollRestoration />
						<Scripts />
					</>
				) : null}
			</body>
		</html>
	)
}

export default function App() {
	return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
	const t = useI18n()
	const text = t.m.common.errors
	let title = text.title
	let message = text.message
	if (isRouteErrorResponse(error)) {
		if (error.status === 404) {
			title = text.notFoundTitle
			message = text.notFound
		} else if (error.status === 410) {
			title = text.goneTitle
			message = text.gone
		} else if (error.status === 503) {
			title = text.unavailableTitle
			message = text.contentUnavailable
		} else if (error.status === 403) {
			title = text.forbiddenTitle
			// A refusal may say why (an expired preview link); forbidden() says the general sentence.
			message = typeof error.data === 'string' && error.data ? t.text(error.data) : text.forbidden
		} else if (typeof error.data === 'string' && error.status < 500) {
			// Thrown answers carry a catalogue key (or, from older code, plain text).
			message = t.text(error.data)
		}
	}
	return (
		<section className="notice-page">
			<title>{title}</title>
			<h1>{title}</h1>
			<p>{message}</p>
			<p>
				<Link prefetch="intent" to={'/'}>
					{text.home}
				</Link>
			</p>
		</section>
	)
}

import { type RouteConfig, type RouteConfigEntry, index, prefix, route } from '@react-router/dev/routes'
import { PREFIXED_LOCALES } from './i18n/locales.ts'

// The whole URL map. One module per URL: pages export a default component,
// resource routes (APIs, webhooks, files) only a loader or action.
//
// The learner, admin and public content routes also answer under each
// non-default locale's prefix (/es/learn, /fr/admin/users, /de/blog); the
// server entry reads the prefix as the page's locale. Platform paths (API,
// well-known and discovery files, assets) stay unprefixed.
const localized = [
	index('routes/home.tsx'),
	route('learn', 'routes/learn.tsx'),

	// Accounts
	route('learn/sign-in', 'routes/learn.sign-in.tsx'),
	route('learn/sign-in/error', 'routes/learn.sign-in.error.tsx'),
	route('learn/sign-up', 'routes/learn.sign-up.tsx'),
	route('learn/verify/:token', 'routes/learn.verify.$token.tsx'),
	route('learn/forgot', 'routes/learn.forgot.tsx'),
	route('learn/reset/:token', 'routes/learn.reset.$token.tsx'),
	route('learn/magic', 'routes/learn.magic.tsx'),
	route('learn/magic/:token', 'routes/learn.magic.$token.tsx'),
	route('learn/account', 'routes/learn.account.tsx'),
	route('learn/account/email/:token', 'routes/learn.account.email.$token.tsx'),
	route('learn/sign-out', 'routes/learn.sign-out.tsx'),
	route('invite/:token', 'routes/invite.$token.tsx'),

	// Learning
	route('learn/dashboard', 'routes/learn.dashboard.tsx'),
	route('learn/course/:slug', 'routes/learn.course.$slug.tsx'),
	route('learn/course/:slug/enroll', 'routes/learn.course.$slug.enroll.tsx'),
	route('learn/course/:slug/entry/:entrySlug', 'routes/learn.course.$slug.entry.$entrySlug.tsx'),

	// Administration
	route('admin', 'routes/admin.tsx'),
	route('admin/users', 'routes/admin.users.tsx'),
	route('admin/users/invite', 'routes/admin.users.invite.tsx'),
	route('admin/users/:id', 'routes/admin.users.$id.tsx'),
	route('admin/courses', 'routes/admin.courses.tsx'),
	route('admin/courses/:slug/dashboard', 'routes/admin.courses.$slug.dashboard.tsx'),
	route('admin/courses/:slug/export', 'routes/admin.courses.$slug.export.ts'),
	route('admin/courses/:slug/settings', 'routes/admin.courses.$slug.settings.tsx'),
	route('admin/courses/:slug/admins', 'routes/admin.courses.$slug.admins.tsx'),
	route('admin/audit', 'routes/admin.audit.tsx'),
	route('admin/api-docs', 'routes/admin.api-docs.tsx'),
	route('admin/api-docs/:file', 'routes/admin.api-docs.$file.ts'),
	route('admin/tenants', 'routes/admin.tenants.tsx'),
	route('admin/enter', 'routes/admin.enter.tsx'),

	// Public content of the host's site
	route('blog', 'routes/blog.tsx'),
	route('blog/:slug', 'routes/blog.$slug.tsx'),
	route(':slug', 'routes/page.$slug.tsx'),
]

// Every route is case-sensitive: `/ADMIN` or `/Learn/Reset/<token>` would otherwise reach a route
// that the server entry's path rules (written in lower case) do not recognise.
const routes: RouteConfigEntry[] = [
	...localized,
	...PREFIXED_LOCALES.flatMap((locale) =>
		prefix(locale, localized).map((entry): RouteConfigEntry => ({ ...entry, id: `${locale}/${entry.id ?? entry.file.replace(/\.tsx?$/, '')}` })),
	),
	// The interface language (the locale switcher's form): a cookie, and users.locale when signed in
	route('learn/locale', 'routes/learn.locale.ts'),

	route('api/admin/impersonate/start', 'routes/api.admin.impersonate.start.ts'),
	route('api/admin/impersonate/stop', 'routes/api.admin.impersonate.stop.ts'),

	// Authentication transport (outside the OpenAPI contract) and the signed-in user's picture
	route('api/auth/signout', 'routes/api.auth.signout.ts'),
	route('api/auth/callback/:provider', 'routes/api.auth.callback.$provider.ts'),
	route('api/auth/:provider', 'routes/api.auth.$provider.ts'),
	route('api/test-idp/*', 'routes/api.test-idp.$.ts'),
	route('api/avatar', 'routes/api.avatar.ts'),

	// Well-known and discovery files, per request host
	route('api/favicon', 'routes/api.favicon.ts'),
	route('icon.png', 'routes/icon.png.ts'),
	route('apple-icon.png', 'routes/apple-icon.png.ts'),
	route('opengraph-image', 'routes/opengraph-image.ts'),
	route('twitter-image', 'routes/opengraph-image.ts', { id: 'twitter-image' }),
	route('robots.txt', 'routes/robots.txt.ts'),
	route('sitemap.xml', 'routes/sitemap.xml.ts'),
	route('sitemap/:id', 'routes/sitemap.$id.ts'),
	route('manifest.webmanifest', 'routes/manifest.webmanifest.ts'),
	route('.well-known/security.txt', 'routes/well-known.security.txt.ts'),
	route('.well-known/change-password', 'routes/well-known.change-password.ts'),
	route('llms.txt', 'routes/llms.txt.ts'),
	route('llms-full.txt', 'routes/llms-full.txt.ts'),

	// Content pipeline (and Markdown projections; /<url>.md is rewritten to them in server/app.ts)
	route('api/aeo/markdown/:slug', 'routes/api.aeo.markdown.$slug.ts'),
	route('api/aeo/markdown/blog/:slug', 'routes/api.aeo.markdown.blog.$slug.ts'),
	route('api/aeo/markdown/learn/course/:slug', 'routes/api.aeo.markdown.learn.course.$slug.ts'),
	route('api/cms/revalidate', 'routes/api.cms.revalidate.ts'),
	route('api/cms/courses/:courseSlug/assets/:assetId', 'routes/api.cms.courses.$courseSlug.assets.$assetId.ts'),
	// The /download variants share their module (same rules, Content-Disposition: attachment).
	route('api/cms/courses/:courseSlug/assets/:assetId/download', 'routes/api.cms.courses.$courseSlug.assets.$assetId.ts', { id: 'course-asset-download' }),
	route('api/cms/site/assets/:assetId', 'routes/api.cms.site.assets.$assetId.ts'),
	route('api/cms/site/assets/:assetId/download', 'routes/api.cms.site.assets.$assetId.ts', { id: 'site-asset-download' }),

	route('api/health', 'routes/api.health.ts'),
	route('api/health/live', 'routes/api.health.live.ts'),
	route('openapi.yaml', 'routes/openapi.yaml.ts'),

	// The benchmark suite's baseline (npm run bench): 404 unless BENCH_ROUTES=true
	route('bench/bare', 'routes/bench.bare.tsx'),
]

export default routes.map((entry) => ({ ...entry, caseSensitive: true })) satisfies RouteConfig

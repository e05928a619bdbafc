import { type RouteConfig, type RouteConfigEntry, index, route } from '@react-router/dev/routes'

// The whole URL map. One module per URL: pages export a default component,
// resource routes (APIs, webhooks, files) only a loader or action.
//
// The learner, admin and public content routes also answer under each
// non-default locale's prefix (/es/learn, /fr/admin/users, /de/blog): the
// server entry serves this one table under that prefix as React Router's
// basename and reads the prefix as the page's locale. Platform paths (API,
// well-known and discovery files, assets) stay unprefixed: their ids start
// with `platform/`, which is how the server entry leaves them out of the
// prefixed tables (server/services.ts).
const platform = (path: string, file: string, id = file.replace(/^routes\//, '').replace(/\.tsx?$/, '')) =>
	route(path, file, { id: `platform/${id}` })

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
	route('learn/unsubscribe/:token', 'routes/learn.unsubscribe.$token.tsx'),
	route('learn/account/data', 'routes/learn.account.data.ts'),
	route('learn/sign-out', 'routes/learn.sign-out.tsx'),
	route('invite/:token', 'routes/invite.$token.tsx'),

	// Learning
	route('learn/dashboard', 'routes/learn.dashboard.tsx'),
	route('learn/course/:slug', 'routes/learn.course.$slug.tsx'),
	route('learn/course/:slug/enroll', 'routes/learn.course.$slug.enroll.tsx'),
	route('learn/course/:slug/entry/:entrySlug', 'routes/learn.course.$slug.entry.$entrySlug.tsx'),
	route('learn/certificates/:id', 'routes/learn.certificates.$id.tsx'),
	// A learner's private calendar feed of due dates (decision 0045): a token in the URL, no session.
	route('learn/calendar/:file', 'routes/learn.calendar.$file.ts'),

	// Certificates: anyone verifies one at its public address (decision 0038)
	route('certificates/:id', 'routes/certificates.$id.tsx'),

	// Administration
	route('admin', 'routes/admin.tsx'),
	route('admin/users', 'routes/admin.users.tsx'),
	route('admin/users/invite', 'routes/admin.users.invite.tsx'),
	route('admin/users/invitations', 'routes/admin.users.invitations.tsx'),
	route('admin/users/:id', 'routes/admin.users.$id.tsx'),
	route('admin/users/:id/erase', 'routes/admin.users.$id.erase.tsx'),
	route('admin/users/:id/data', 'routes/admin.users.$id.data.ts'),
	route('admin/courses', 'routes/admin.courses.tsx'),
	route('admin/courses/:slug/dashboard', 'routes/admin.courses.$slug.dashboard.tsx'),
	route('admin/courses/:slug/export', 'routes/admin.courses.$slug.export.ts'),
	route('admin/courses/:slug/settings', 'routes/admin.courses.$slug.settings.tsx'),
	route('admin/courses/:slug/admins', 'routes/admin.courses.$slug.admins.tsx'),
	route('admin/courses/:slug/enroll', 'routes/admin.courses.$slug.enroll.tsx'),
	route('admin/courses/:slug/announce', 'routes/admin.courses.$slug.announce.tsx'),
	route('admin/courses/:slug/submissions', 'routes/admin.courses.$slug.submissions.tsx'),
	route('admin/courses/:slug/submissions/:id', 'routes/admin.courses.$slug.submissions.$id.tsx'),
	route('admin/courses/:slug/learners/:userId', 'routes/admin.courses.$slug.learners.$userId.tsx'),
	route('admin/courses/:slug/certificates', 'routes/admin.courses.$slug.certificates.tsx'),
	route('admin/audit', 'routes/admin.audit.tsx'),
	route('admin/api-docs', 'routes/admin.api-docs.tsx'),
	route('admin/api-docs/:file', 'routes/admin.api-docs.$file.ts'),
	route('admin/tenants', 'routes/admin.tenants.tsx'),
	route('admin/tenants/api', 'routes/admin.tenants.api.tsx'),
	route('admin/settings', 'routes/admin.settings.tsx'),
	route('admin/settings/scim', 'routes/admin.settings.scim.tsx'),
	route('admin/settings/webhooks', 'routes/admin.settings.webhooks.tsx'),
	route('admin/settings/api', 'routes/admin.settings.api.tsx'),
	route('admin/settings/sign-in', 'routes/admin.settings.sign-in.tsx'),
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
	// The interface language (the locale switcher's form): a cookie, and users.locale when signed in
	platform('learn/locale', 'routes/learn.locale.ts'),

	platform('api/admin/impersonate/start', 'routes/api.admin.impersonate.start.ts'),
	platform('api/admin/impersonate/stop', 'routes/api.admin.impersonate.stop.ts'),

	// Authentication transport (outside the OpenAPI contract) and the signed-in user's picture
	platform('api/auth/signout', 'routes/api.auth.signout.ts'),
	platform('api/auth/callback/:provider', 'routes/api.auth.callback.$provider.ts'),
	// A tenant's own identity providers (decision 0069): the sign-in button's post and the provider's redirect back
	platform('api/auth/sso/:providerId/callback', 'routes/api.auth.sso.$providerId.callback.ts'),
	platform('api/auth/sso/:providerId', 'routes/api.auth.sso.$providerId.ts'),
	// A tenant's SAML providers (decision 0077): the SP metadata and the IdP's POST back (the ACS)
	platform('api/auth/saml/:providerId/metadata', 'routes/api.auth.saml.$providerId.metadata.ts'),
	platform('api/auth/saml/:providerId/acs', 'routes/api.auth.saml.$providerId.acs.ts'),
	platform('api/auth/:provider', 'routes/api.auth.$provider.ts'),
	platform('api/test-idp/*', 'routes/api.test-idp.$.ts'),
	platform('api/avatar', 'routes/api.avatar.ts'),
	// Files handed in with assignments: their learner and the course's staff only
	platform('api/files/:fileId', 'routes/api.files.$fileId.ts'),

	// Well-known and discovery files, per request host
	platform('api/favicon', 'routes/api.favicon.ts'),
	platform('icon.png', 'routes/icon.png.ts'),
	platform('apple-icon.png', 'routes/apple-icon.png.ts'),
	platform('opengraph-image', 'routes/opengraph-image.ts'),
	platform('twitter-image', 'routes/opengraph-image.ts', 'twitter-image'),
	platform('robots.txt', 'routes/robots.txt.ts'),
	platform('sitemap.xml', 'routes/sitemap.xml.ts'),
	platform('sitemap/:id', 'routes/sitemap.$id.ts'),
	platform('manifest.webmanifest', 'routes/manifest.webmanifest.ts'),
	platform('.well-known/security.txt', 'routes/well-known.security.txt.ts'),
	platform('.well-known/change-password', 'routes/well-known.change-password.ts'),
	platform('llms.txt', 'routes/llms.txt.ts'),
	platform('llms-full.txt', 'routes/llms-full.txt.ts'),

	// Certificates' public files (decision 0038): the issuer's DID document, the JSON-LD contexts the
	// credentials use, the revocation lists, and each certificate's credential
	platform('.well-known/did.json', 'routes/well-known.did.json.ts'),
	platform('credentials/contexts/:name', 'routes/credentials.contexts.$name.ts'),
	platform('credentials/status/:list', 'routes/credentials.status.$list.ts'),
	platform('certificates/:id/credential', 'routes/certificates.$id.credential.ts'),

	// Content pipeline (and Markdown projections; /<url>.md is rewritten to them in server/entry-rules.ts)
	platform('api/aeo/markdown/:slug', 'routes/api.aeo.markdown.$slug.ts'),
	platform('api/aeo/markdown/blog/:slug', 'routes/api.aeo.markdown.blog.$slug.ts'),
	platform('api/aeo/markdown/learn/course/:slug', 'routes/api.aeo.markdown.learn.course.$slug.ts'),
	platform('api/cms/revalidate', 'routes/api.cms.revalidate.ts'),
	platform('api/cms/courses/:courseSlug/assets/:assetId', 'routes/api.cms.courses.$courseSlug.assets.$assetId.ts'),
	// The /download variants share their module (same rules, Content-Disposition: attachment).
	platform(
		'api/cms/courses/:courseSlug/assets/:assetId/download',
		'routes/api.cms.courses.$courseSlug.assets.$assetId.ts',
		'course-asset-download',
	),
	platform('api/cms/site/assets/:assetId', 'routes/api.cms.site.assets.$assetId.ts'),
	platform('api/cms/site/assets/:assetId/download', 'routes/api.cms.site.assets.$assetId.ts', 'site-asset-download'),

	// SCIM 2.0 provisioning of a tenant's people and groups by its identity provider (decision 0070):
	// its own protocol (bearer token, application/scim+json, SCIM's error shape), outside the OpenAPI contract
	platform('scim/v2/*', 'routes/scim.v2.$.ts'),
	// The REST API for other systems (issue 49, decision 0071): a tenant's API key as Bearer, on its own host only
	platform('api/v1/users', 'routes/api.v1.users.ts'),
	platform('api/v1/users/:userId', 'routes/api.v1.users.$userId.ts'),
	platform('api/v1/users/:userId/role', 'routes/api.v1.users.$userId.role.ts'),
	platform('api/v1/users/:userId/deactivate', 'routes/api.v1.users.$userId.deactivate.ts'),
	platform('api/v1/users/:userId/reactivate', 'routes/api.v1.users.$userId.reactivate.ts'),
	platform('api/v1/users/:userId/progress/:courseSlug', 'routes/api.v1.users.$userId.progress.$courseSlug.ts'),
	platform('api/v1/enrollments', 'routes/api.v1.enrollments.ts'),
	platform('api/v1/enrollments/:enrollmentId/cancel', 'routes/api.v1.enrollments.$enrollmentId.cancel.ts'),
	platform('api/v1/quiz-attempts', 'routes/api.v1.quiz-attempts.ts'),
	platform('api/v1/submissions', 'routes/api.v1.submissions.ts'),
	platform('api/v1/certificates', 'routes/api.v1.certificates.ts'),
	platform('api/v1/certificates/:certificateId', 'routes/api.v1.certificates.$certificateId.ts'),
	platform('api/v1/certificates/:certificateId/revoke', 'routes/api.v1.certificates.$certificateId.revoke.ts'),
	platform('api/v1/courses', 'routes/api.v1.courses.ts'),
	platform('api/v1/tenants', 'routes/api.v1.tenants.ts'),
	platform('api/v1/tenants/:tenantId', 'routes/api.v1.tenants.$tenantId.ts'),
	platform('api/v1/tenants/:tenantId/status', 'routes/api.v1.tenants.$tenantId.status.ts'),

	platform('api/health', 'routes/api.health.ts'),
	platform('api/health/live', 'routes/api.health.live.ts'),
	platform('openapi.yaml', 'routes/openapi.yaml.ts'),

	// The benchmark suite's baseline (npm run bench): 404 unless BENCH_ROUTES=true
	platform('bench/bare', 'routes/bench.bare.tsx'),
]

export default routes.map((entry) => ({ ...entry, caseSensitive: true })) satisfies RouteConfig

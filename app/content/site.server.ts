import type { RequestContext } from '#app/context.ts'
import type { Site } from './content.ts'
import { findTenantById } from '#db/tenants.ts'
import { lastSessionHost } from '#db/sessions.ts'
import type { Locale } from '#db/schema/values.ts'
import { mailOrigin } from '../platform/tenant.server.ts'
import type { MailContext } from '../platform/emails.server.ts'
import type { JobDeps, JobSite } from '../platform/jobs.server.ts'
import { APEX_SITE } from './cms.server.ts'
import { describeError, log } from '../platform/log.server.ts'

export interface SiteChrome {
	name: string
	description: string
	themeColor: string
	/** Text colour with enough contrast on themeColor. */
	onThemeColor: string
	backgroundColor: string
	/** The locale the name was served in. */
	locale: string
	/** The locale the description was served in (decision 0012). */
	descriptionLocale: string
}

/** What the site's document is read with: a request, or a job's site (jobMailContext). */
export type SiteScope = Pick<RequestContext, 'cms' | 'site' | 'locale' | 'tenant'>

const PLATFORM_NAME = 'Open LMS'
/** Colours of a site whose document has none (or cannot be read). */
export const DEFAULT_THEME_COLOR = '#1d4ed8'
export const DEFAULT_BACKGROUND_COLOR = '#ffffff'

/** The site document, or null when the content service has none or fails (callers fall back). */
export async function siteDocument(ctx: SiteScope, locale: string = ctx.locale): Promise<Site | null> {
	try {
		return await ctx.cms.site(ctx.site, locale)
	} catch (error) {
		log.warn('cms/site-unavailable', { site: ctx.site, error: describeError(error) })
		return null
	}
}

/** The site document for this host, or a plain fallback: the layout must render even when the content service is down. */
export async function loadSiteChrome(ctx: SiteScope): Promise<SiteChrome> {
	const site = await siteDocument(ctx)
	const themeColor = site?.theme_color ?? DEFAULT_THEME_COLOR
	return {
		name: site?.name || ctx.tenant?.name || PLATFORM_NAME,
		description: site?.description ?? '',
		themeColor,
		onThemeColor: readableOn(themeColor),
		backgroundColor: site?.background_color ?? DEFAULT_BACKGROUND_COLOR,
		locale: site?.locale ?? ctx.locale,
		descriptionLocale: site?.descriptionLocale ?? site?.locale ?? ctx.locale,
	}
}

/** WCAG relative luminance, then black or white text, whichever contrasts more. */
export function readableOn(hex: string) {
	const [r, g, b] = [1, 3, 5].map((i) => {
		const c = parseInt(hex.slice(i, i + 2), 16) / 255
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
	})
	const l = 0.2126 * r + 0.7152 * g + 0.0722 * b
	return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff'
}

/** Top-level entries of the page hierarchy (published, listed pages) for the header; empty when the content service fails. */
export async function loadMenu(ctx: RequestContext): Promise<Array<{ slug: string; title: string; locale: string }>> {
	try {
		const tree = await ctx.cms.pageHierarchy(ctx.site, ctx.locale)
		return (tree ?? []).map(({ slug, title, locale }) => ({ slug, title, locale: locale ?? ctx.locale }))
	} catch (error) {
		log.warn('cms/menu-unavailable', { site: ctx.site, error: describeError(error) })
		return []
	}
}

/** The site's name as mails and public pages sign with it; the tenant's when the content service fails. */
export async function siteName(ctx: SiteScope, locale: Locale) {
	try {
		return (await loadSiteChrome({ ...ctx, locale })).name
	} catch {
		return ctx.tenant?.name ?? ''
	}
}
/**
 * The site a job's mail comes from, as the request that wrote it saw it. Its links name the host
 * that request was made on, or the tenant's custom domain once live (decision 0062): right for a
 * mail to the person who asked for it; a mail to someone else takes recipientMailContext.
 */
export async function jobMailContext(deps: JobDeps, job: JobSite): Promise<MailContext> {
	const tenant = job.tenantId ? await findTenantById(deps.db, job.tenantId) : null
	const origin = mailOrigin(job.origin, tenant, deps.env.APP_BASE_DOMAIN, new URL(job.origin).hostname)
	return { ...deps, tenant, site: tenant ? tenant.slug : APEX_SITE, origin, locale: job.locale }
}

/**
 * A mail's context for a person other than the one whose request wrote the job (a graded hand-in,
 * a reminder, an announcement, an enrollment): its links name the tenant's host that person last
 * signed in on, or its custom domain once live, else its subdomain, never the sender's host
 * (decision 0062). `userId` null: someone without an account yet (the canonical host).
 */
export async function recipientMailContext<C extends MailContext>(ctx: C, userId: string | null): Promise<C> {
	const lastHost = ctx.tenant && userId ? await lastSessionHost(ctx.db, ctx.tenant.id, userId) : null
	return { ...ctx, origin: mailOrigin(ctx.origin, ctx.tenant, ctx.env.APP_BASE_DOMAIN, lastHost) }
}

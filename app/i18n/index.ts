/**
 * The interface's message catalogues and the helpers pages use to read them.
 *
 * The browser loads only its page's catalogue, before hydrating
 * (app/entry.client.tsx), English included: no page ships a language it is
 * not in, and only the parts the page reads (`cataloguePartsOf`, decision
 * 0046). The server registers all of them whole (./catalogues.server.ts).
 */
import { createElement, Fragment, use, type ReactNode } from 'react'
import { useLocation, useRouteLoaderData } from 'react-router'
import { formatDate, formatDay, formatNumber, formatPercent } from './format.ts'
import { DEFAULT_LOCALE, isLocale, LOCALE_NAMES, localePath, type Locale } from './locales.ts'

export type Messages = typeof import('./catalogues/en.ts').default
/** Plural forms by Intl.PluralRules category; `other` is the fallback and `{count}` the number. */
type Plural = { one?: string; other: string }

/** The parts of a catalogue the browser loads separately (decision 0046). */
type PartName = 'learner' | 'course' | 'admin' | 'audit' | 'settings'

/** In the browser, the parts of each locale loaded so far; the server registers whole catalogues. */
const loaded: Partial<Record<Locale, Messages>> = {}
const loadedParts = new Map<Locale, Set<PartName>>()

type Part = () => Promise<{ default: object }>
const loaders: Record<Locale, Record<PartName, Part>> = {
	en: {
		learner: () => import('./catalogues/learner-en.ts'),
		course: () => import('./catalogues/course-en.ts'),
		admin: () => import('./catalogues/admin-en.ts'),
		audit: () => import('./catalogues/audit-en.ts'),
		settings: () => import('./catalogues/settings-en.ts'),
	},
	es: {
		learner: () => import('./catalogues/learner-es.ts'),
		course: () => import('./catalogues/course-es.ts'),
		admin: () => import('./catalogues/admin-es.ts'),
		audit: () => import('./catalogues/audit-es.ts'),
		settings: () => import('./catalogues/settings-es.ts'),
	},
	fr: {
		learner: () => import('./catalogues/learner-fr.ts'),
		course: () => import('./catalogues/course-fr.ts'),
		admin: () => import('./catalogues/admin-fr.ts'),
		audit: () => import('./catalogues/audit-fr.ts'),
		settings: () => import('./catalogues/settings-fr.ts'),
	},
	de: {
		learner: () => import('./catalogues/learner-de.ts'),
		course: () => import('./catalogues/course-de.ts'),
		admin: () => import('./catalogues/admin-de.ts'),
		audit: () => import('./catalogues/audit-de.ts'),
		settings: () => import('./catalogues/settings-de.ts'),
	},
	pt: {
		learner: () => import('./catalogues/learner-pt.ts'),
		course: () => import('./catalogues/course-pt.ts'),
		admin: () => import('./catalogues/admin-pt.ts'),
		audit: () => import('./catalogues/audit-pt.ts'),
		settings: () => import('./catalogues/settings-pt.ts'),
	},
	zh: {
		learner: () => import('./catalogues/learner-zh.ts'),
		course: () => import('./catalogues/course-zh.ts'),
		admin: () => import('./catalogues/admin-zh.ts'),
		audit: () => import('./catalogues/audit-zh.ts'),
		settings: () => import('./catalogues/settings-zh.ts'),
	},
}

export function registerCatalogue(locale: Locale, messages: Messages) {
	loaded[locale] = messages
	loadedParts.set(locale, new Set(['learner', 'course', 'admin', 'audit', 'settings']))
}

/**
 * The parts of the catalogue a page reads, under any locale prefix: every page the learner part;
 * the admin pages the course staff's part (course admin, grading), and those outside one course's
 * pages (users, tenants, the course list) the administration's part too; the admin home and the
 * audit log the audit labels as well, the settings pages (sign-in, SCIM, API keys, webhooks) theirs.
 */
export function cataloguePartsOf(pathname: string): PartName[] {
	const admin = /^(?:\/[a-z]{2})?\/admin(?:\/(courses\/[^/]+\/)|\/|$)/.exec(pathname)
	if (!admin) return ['learner']
	if (admin[1]) return ['learner', 'course']
	const audit = /^(?:\/[a-z]{2})?\/admin(?:\/audit)?\/?$/.test(pathname)
	if (audit) return ['learner', 'course', 'admin', 'audit']
	// The platform's API keys (/admin/tenants/api) share the site's key page's messages.
	const settings = /^(?:\/[a-z]{2})?\/admin\/(?:settings|tenants\/api)(?:\/|$)/.test(pathname)
	return settings ? ['learner', 'course', 'admin', 'settings'] : ['learner', 'course', 'admin']
}

const hasCatalogue = (locale: Locale, parts: PartName[]) => parts.every((p) => loadedParts.get(locale)?.has(p))

const loading = new Map<string, Promise<void>>()

/** Loads a catalogue's parts once; the same promise for every caller (React's `use` needs a stable one). */
export function loadCatalogue(locale: string, parts: PartName[] = ['learner']): Promise<void> {
	if (!isLocale(locale) || hasCatalogue(locale, parts)) return Promise.resolve()
	const key = `${locale}:${parts.join(',')}`
	let promise = loading.get(key)
	if (!promise) {
		promise = Promise.all(parts.map((part) => loaders[locale][part]())).then((modules) => {
			// Two parts may hold pieces of one area (the audit labels are `adminCourses.audit`): merged by area.
			const merged: Record<string, object> = { ...loaded[locale] }
			for (const { default: part } of modules)
				for (const [area, messages] of Object.entries(part)) merged[area] = { ...merged[area], ...messages }
			loaded[locale] = merged as Messages
			const have = loadedParts.get(locale) ?? new Set<PartName>()
			for (const part of parts) have.add(part)
			loadedParts.set(locale, have)
		})
		loading.set(key, promise)
	}
	return promise
}

export interface I18n {
	locale: Locale
	m: Messages
	/** Fills `{name}` placeholders. */
	format(template: string, values: Record<string, string | number>): string
	/** Fills `{name}` placeholders with elements (`<strong>`, `<code>`), so word order stays the translation's. */
	rich(template: string, nodes: Record<string, ReactNode>): ReactNode[]
	/** The plural form for `count` (formatted for the locale into `{count}`), other placeholders filled from `values`. */
	plural(forms: Plural, count: number, values?: Record<string, string | number>): string
	/**
	 * A catalogue key (`common.validation.emailRequired`) in this locale. Errors
	 * travel from schemas and actions as keys, so one validation run serves
	 * every locale; anything that is not a key comes back unchanged.
	 */
	text(keyOrText: string): string
	/** A path of this site in this locale: `/learn` → `/es/learn`. */
	href(path: string): string
	date(iso: string): string
	/** A calendar day (UTC), written out: a certificate's date. */
	day(iso: string): string
	number(n: number): string
	percent(n: number): string
	/** A locale's name in this locale (for "shown in English"). */
	languageName(locale: Locale): string
}

const instances = new Map<Locale, I18n>()

export function i18n(locale: Locale): I18n {
	let instance = instances.get(locale)
	if (instance && instance.m === loaded[locale]) return instance
	const m = loaded[locale] ?? loaded[DEFAULT_LOCALE]
	if (!m) throw new Error(`No message catalogue loaded for ${locale}`)
	const pluralRules = new Intl.PluralRules(locale)
	const names = new Intl.DisplayNames([locale], { type: 'language' })
	const format = (template: string, values: Record<string, string | number>) =>
		template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
	instance = {
		locale,
		m,
		format,
		rich: (template, nodes) =>
			template.split(/(\{\w+\})/).map((part, i) => {
				const name = /^\{(\w+)\}$/.exec(part)?.[1]
				return name && Object.hasOwn(nodes, name) ? createElement(Fragment, { key: i }, nodes[name]) : part
			}),
		plural: (forms, count, values = {}) => {
			const category = pluralRules.select(count) as keyof Plural
			return format(forms[category] ?? forms.other, { ...values, count: formatNumber(count, locale) })
		},
		text: (keyOrText) => {
			const found = lookup(m, keyOrText)
			return typeof found === 'string' ? found : keyOrText
		},
		href: (path) => localePath(locale, path),
		date: (iso) => formatDate(iso, locale),
		day: (iso) => formatDay(iso, locale),
		number: (n) => formatNumber(n, locale),
		percent: (n) => formatPercent(n, locale),
		languageName: (other) => names.of(other) ?? LOCALE_NAMES[other],
	}
	if (loaded[locale]) instances.set(locale, instance)
	return instance
}

function lookup(messages: Messages, key: string): unknown {
	if (!/^[a-zA-Z]+(\.[\w]+)+$/.test(key)) return undefined
	let node: unknown = messages
	for (const part of key.split('.')) {
		if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined
		node = (node as Record<string, unknown>)[part]
	}
	return node
}

/** The page's i18n: its locale comes from the root loader (negotiated, or the signed-in user's). */
export function useI18n(): I18n {
	const data = useRouteLoaderData('root') as { locale?: string } | undefined
	const locale = isLocale(data?.locale) ? data.locale : DEFAULT_LOCALE
	const parts = cataloguePartsOf(useLocation().pathname)
	// A client-side navigation can change the locale (signing in lands in the user's own) or lead
	// to a staff page: the new page waits, inside React Router's transition, for what it reads.
	if (!hasCatalogue(locale, parts)) use(loadCatalogue(locale, parts))
	return i18n(locale)
}

/** Every leaf key of a catalogue (`common.nav.courses`), for the translation checks. */
export function catalogueKeys(messages: object, prefix = ''): string[] {
	return Object.entries(messages).flatMap(([key, value]) =>
		typeof value === 'object' && value !== null ? catalogueKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
	)
}

/** The i18n of a route's `meta` function, from the root loader's locale among its matches. */
export function metaI18n(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): I18n {
	const locale = (matches.find((match) => match?.id === 'root')?.data as { locale?: string } | undefined)?.locale
	return i18n(isLocale(locale) ? locale : DEFAULT_LOCALE)
}

/**
 * How each admin route of Strapi's route table names a document, for the walls test
 * (walls.test.ts). A route whose path names one (`:id`, `:sourceId`, `:documentId` beside
 * `:model` or `:contentType`) is called with the document put in; the others are listed here:
 * those naming documents in their query or body, with how, and those naming none, with why.
 * A route in none of these (one a later Strapi adds) fails the test until it is placed.
 */

/** The watched prefixes: every admin route under them is placed. */
export const PREFIXES = ['/content-manager/', '/i18n/', '/upload/', '/content-releases/', '/review-workflows/']

export interface Target {
	uid: string
	documentId: string
	/** The en draft's row id (routes that name rows). */
	rowId: number
	/** The site the document is stored in (a site document: its key). */
	site: string
	locale: string
}

export interface Call {
	query?: Record<string, string>
	body?: Record<string, unknown>
}

/** Routes naming a document in the path: filled in from the target. */
export const namesInPath = (path: string) =>
	/:(id|sourceId|documentId)\b/.test(path) && /:(model|contentType|model_uid)\b/.test(path)

export const fillPath = (path: string, t: Target) =>
	path
		.replace(/:(model|contentType|model_uid)\b/, t.uid)
		.replace(/:(id|sourceId|documentId)\b/, t.documentId)
		.replace(':targetField', 'title')

const bulk = (t: Target): Call => ({ body: { documentIds: [t.documentId], locale: t.locale } })

/** Routes naming documents in the query or body. */
export const NAMES_IN_REQUEST: Record<string, (t: Target) => Call> = {
	'POST /content-manager/collection-types/:model/actions/bulkDelete': bulk,
	'POST /content-manager/collection-types/:model/actions/bulkFindForValidation': bulk,
	'POST /content-manager/collection-types/:model/actions/bulkPublish': bulk,
	'POST /content-manager/collection-types/:model/actions/bulkUnpublish': bulk,
	'GET /content-manager/collection-types/:model/actions/countManyEntriesDraftRelations': (t) => ({
		query: { 'documentIds[0]': t.documentId, locale: t.locale },
	}),
	'POST /i18n/content-manager/actions/get-non-localized-fields': (t) => ({
		body: { model: t.uid, id: t.rowId, locale: t.locale },
	}),
	'GET /i18n/content-manager/get-fill-from-locale/:model': (t) => ({
		query: { documentId: t.documentId, sourceLocale: 'en', targetLocale: t.locale },
	}),
	'GET /content-manager/preview/url/:contentType': (t) => ({
		query: { documentId: t.documentId, locale: t.locale, status: 'draft' },
	}),
}

/** Routes that create a document in the site their body names (a create is the only time it is set). */
export const NAMES_A_SITE = new Set([
	'POST /content-manager/collection-types/:model',
	'POST /content-manager/collection-types/:model/actions/publish',
])

/**
 * The single-type routes, given one of our collection types, act on "the first document" of the
 * type, whichever site it is stored in: refused to authors for every type.
 */
export const FIRST_DOCUMENT = (key: string) => key.includes(' /content-manager/single-types/:model')

/** Routes writing their body into the document: called again with a `site` in it. */
export const WRITES_BODY = new Set([
	'PUT /content-manager/collection-types/:model/:id',
	'POST /content-manager/collection-types/:model/:id/actions/publish',
	'POST /content-manager/collection-types/:model/clone/:sourceId',
	'POST /content-manager/collection-types/:model/auto-clone/:sourceId',
])

const MEDIA = 'the media library: files and folders, no document (tests/authoring/media.test.ts)'
const SETTINGS = "a type's or the plugin's settings, no document"

/** Routes naming no document, with why. */
export const NO_DOCUMENT: Record<string, string> = {
	'GET /content-manager/init': SETTINGS,
	'GET /content-manager/content-types': SETTINGS,
	'GET /content-manager/content-types-settings': SETTINGS,
	'GET /content-manager/content-types/:uid/configuration': SETTINGS,
	'PUT /content-manager/content-types/:uid/configuration': SETTINGS,
	'GET /content-manager/components': SETTINGS,
	'GET /content-manager/components/:uid/configuration': SETTINGS,
	'PUT /content-manager/components/:uid/configuration': SETTINGS,
	'POST /content-manager/uid/generate': 'a new uid field value (our types have none)',
	'POST /content-manager/uid/check-availability': 'a uid field value (our types have none)',
	'GET /content-manager/relations/:model/:targetField':
		"targets a course's categories and tags may list: filtered to the author's sites (lists.test.ts reads it)",
	'GET /content-manager/collection-types/:model': 'the list: filtered to the author’s sites (walls.test.ts lists it)',
	'GET /content-manager/preview/script': 'a static script',
	'GET /content-manager/homepage/recent-documents': 'lists: filtered to the author’s sites (walls.test.ts reads it)',
	'GET /content-manager/homepage/count-documents':
		'counts: of the author’s sites (src/extensions/content-manager; lists.test.ts reads them)',
	'GET /i18n/iso-locales': SETTINGS,
	'GET /i18n/locales': SETTINGS,
	'POST /i18n/locales': SETTINGS,
	'PUT /i18n/locales/:id': SETTINGS,
	'DELETE /i18n/locales/:id': SETTINGS,
	'GET /i18n/settings': SETTINGS,
	'PUT /i18n/settings': SETTINGS,
	'GET /i18n/ai-localization-jobs/single-types/:contentType': 'single types only (we have none)',
	'GET /upload/settings': SETTINGS,
	'PUT /upload/settings': SETTINGS,
	'GET /upload/configuration': SETTINGS,
	'PUT /upload/configuration': SETTINGS,
	'POST /upload': MEDIA,
	'POST /upload/actions/upload-from-urls': MEDIA,
	'GET /upload/files': MEDIA,
	'POST /upload/files': MEDIA,
	'GET /upload/files/:id': MEDIA,
	'PUT /upload/files/:id': MEDIA,
	'POST /upload/files/:id/replace': MEDIA,
	'DELETE /upload/files/:id': MEDIA,
	'GET /upload/folders/:id': MEDIA,
	'GET /upload/folders': MEDIA,
	'POST /upload/folders': MEDIA,
	'PUT /upload/folders/:id': MEDIA,
	'GET /upload/folder-structure': MEDIA,
	'POST /upload/actions/bulk-delete': MEDIA,
	'POST /upload/actions/bulk-move': MEDIA,
	'POST /upload/actions/bulk-update': MEDIA,
	'POST /upload/actions/generate-ai-metadata': MEDIA,
	'POST /upload/ai-metadata-jobs': MEDIA,
	'GET /upload/ai-metadata-jobs/latest': MEDIA,
	'GET /upload/ai-metadata-jobs/pending-count': MEDIA,
}

/** A course, page or post of `site` whose every string carries `mark` (a quiz's answer key too). */
export function fixtureData(uid: string, site: string, mark: string, locale: string) {
	const question = {
		key: 'k',
		type: 'multiple_choice',
		prompt: 'P',
		options: [
			{ key: `${mark}-answer`, text: 'A' },
			{ key: 'other', text: 'B' },
		],
		correctOptionKey: `${mark}-answer`,
	}
	const quiz = { maxAttempts: 1, passingScore: 50, questions: [question] }
	const modules = [{ slug: 'm', title: 'M', entries: [{ slug: 'q', type: 'quiz', title: 'Q', quiz }] }]
	return { site, slug: mark, title: `Title ${mark} ${locale}`, ...(uid === 'api::course.course' && { modules }) }
}

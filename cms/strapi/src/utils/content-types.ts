/**
 * The content types the API serves (src/api/<name>/content-types/), by uid, what a read of each populates,
 * and the documents as such a read returns them: only the fields the content API shapes
 * (src/utils/view.ts), since Strapi's own document types are generic without generated schemas.
 */

export const UID = {
	site: 'api::site.site',
	course: 'api::course.course',
	page: 'api::page.page',
	post: 'api::blog-post.blog-post',
} as const
export type ContentUid = (typeof UID)[keyof typeof UID]

export const POPULATE = {
	[UID.site]: ['favicon', 'icon', 'og_image'],
	[UID.course]: {
		modules: {
			populate: {
				entries: { populate: { quiz: { populate: { questions: { populate: ['options'] } } }, assignment: true } },
			},
		},
		categories: true,
		tags: true,
		certificate: true,
		image: true,
	},
	[UID.page]: undefined,
	[UID.post]: ['hero'],
}

export type Text = string | null | undefined
export type Instant = string | Date | null | undefined
export type Media = { url?: string } | null | undefined
/**
 * A category or tag: its slug, its name in en and one field per other locale (`nameEs`…); one
 * document for every translation of the courses that list it.
 */
export type Label = { slug: string; name?: Text } & { [K in `name${string}`]?: Text }
/** A category's or tag's field of its name in a locale other than en: `nameEs` for es. */
export const nameField = (locale: string) => `name${locale[0].toUpperCase()}${locale.slice(1)}` as const
export type Option = { key: string; text?: Text; correct?: boolean | null }
export type Question = {
	key: string
	type: string
	prompt?: Text
	explanation?: Text
	options?: Option[] | null
	correct?: boolean | null
	acceptedAnswers?: Text
	correctOptionKey?: string | null
}
export type Quiz = {
	maxAttempts?: number | null
	passingScore?: number | null
	revealAnswers?: string | null
	showAnswers?: string | null
	shuffle?: boolean | null
	questions?: Question[] | null
}
export type Assignment = {
	graded?: boolean | null
	maxScore?: number | null
	passingScore?: number | null
	allowedFileTypes?: string | null
	instructions?: Text
}
export type Entry = {
	slug: string
	type: string
	title?: Text
	body?: Text
	estimatedMinutes?: number | null
	dueAt?: Instant
	dueDaysAfterEnrollment?: number | null
	quiz?: Quiz | null
	assignment?: Assignment | null
}
export type Module = { slug: string; title?: Text; entries?: Entry[] | null }
export type Dated = {
	slug: string
	updatedAt?: Instant
	publishedAt?: Instant
	publicationDate?: Instant
	archivedAt?: Instant
}
export type Site = {
	name?: Text
	short_name?: Text
	description?: Text
	theme_color?: string | null
	background_color?: string | null
	accent_color?: string | null
	security_contact?: string | null
	favicon?: Media
	icon?: Media
	og_image?: Media
	updatedAt?: Instant
}
export type Course = Dated & {
	listed?: boolean | null
	priceAmount?: number | null
	priceCurrency?: string | null
	estimatedMinutes?: number | null
	title?: Text
	summary?: Text
	description?: Text
	modules?: Module[] | null
	categories?: Label[] | null
	tags?: Label[] | null
	featured?: boolean | null
	image?: Media
	certificate?: { enabled?: boolean | null; criteria?: Text } | null
	passQuizzes?: boolean | null
	passAssignments?: boolean | null
	passMinimumAverage?: number | null
	passRule?: unknown
}
export type Page = Dated & {
	listed?: boolean | null
	parent?: string | null
	order?: number | null
	title?: Text
	body?: Text
}
export type Post = Dated & { author?: string | null; hero?: Media; title?: Text; excerpt?: Text; body?: Text }
export type Status = 'draft' | 'published' | 'archived'
/** A document as the API serves it: en's version, the locale's (null: none), and its status. */
export type Item<T> = { en: T; loc: T | null; status: Status }
/** Each content type's document, by uid, as a read stores it: with its documentId. */
export type DocumentOf<U extends ContentUid> = { documentId: string; archivedAt?: Instant } & {
	[UID.site]: Site
	[UID.course]: Course
	[UID.page]: Page
	[UID.post]: Post
}[U]

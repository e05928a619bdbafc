import { z } from 'zod'

// Shapes of what the content service returns (cms/README.md). Every response
// is parsed with these before use; unknown keys are dropped.

const locale = z.enum(['en', 'es', 'fr', 'de', 'pt', 'zh'])
const isoDate = z.iso.datetime({ offset: true })

const price = z.object({ amount: z.number().int().nonnegative(), currency: z.string().length(3) })

/**
 * A category or a tag of a course (decision 0042): `slug` is the same in every locale (the filter's
 * URL value), `name` is localized. Optional fields: a service without them serves courses without.
 */
const label = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,64}$/), name: z.string().min(1).max(200) })

export const courseSummary = z.object({
	slug: z.string(),
	status: z.enum(['draft', 'published', 'archived']),
	listed: z.boolean(),
	publishedAt: isoDate.nullable(),
	archivedAt: isoDate.nullable(),
	updatedAt: isoDate,
	price: price.nullable(),
	estimatedMinutes: z.number().nullable(),
	title: z.string(),
	summary: z.string(),
	entryCount: z.number().int(),
	/** The locale the title was served in (en when the title has no translation). */
	locale,
	/**
	 * The locale `summary` was served in when it falls back apart from the title; absent means
	 * the same as `locale` (a service that omits it is trusted to match). Decision 0012.
	 */
	summaryLocale: locale.optional(),
	/** The catalogue's filters; absent: none. Their names are served in `locale`. */
	categories: z.array(label).max(50).optional(),
	tags: z.array(label).max(50).optional(),
	/** Shown on the site's home page (decision 0042); when no course is, the newest are. */
	featured: z.boolean().optional(),
	/** The course's picture (decision 0082): an asset URL, served under the course's asset route; absent: none. */
	image: z.string().max(2000).optional(),
})

const entryType = z.enum(['lesson', 'quiz', 'assignment'])

/**
 * When an entry is due (decision 0045): at one instant for everyone (`at`, an ISO date-time with
 * its offset), or a whole number of days after the learner's enrollment (`daysAfterEnrollment`,
 * counted from `enrollments.enrolled_at`). Absent: not due. The same on the course's entry list and
 * on the entry itself.
 */
const due = z.union([
	z.strictObject({ at: isoDate }),
	z.strictObject({ daysAfterEnrollment: z.number().int().min(0).max(3650) }),
])

const entrySummary = z.object({
	slug: z.string(),
	type: entryType,
	title: z.string(),
	estimatedMinutes: z.number().nullable(),
	/** The locale the entry's title was served in; absent means the course's `locale`. */
	locale: locale.optional(),
	due: due.optional(),
})

const module_ = z.object({
	slug: z.string(),
	title: z.string(),
	/** The locale the module's title was served in; absent means the course's `locale`. */
	locale: locale.optional(),
	entries: z.array(entrySummary),
})

/**
 * Whether passing the course earns a certificate (an Open Badges 3.0 credential, decision 0038), and
 * what it says the learner did. Absent: no certificate.
 */
const certificateSetting = z.object({
	enabled: z.boolean(),
	/** The achievement's criteria as the credential states them; absent: the service's own sentence. */
	criteria: z.string().trim().min(1).max(2000).optional(),
	/** The locale `criteria` was served in; absent means the course's `locale`. */
	criteriaLocale: locale.optional(),
})

/**
 * What passing the course takes (decision 0037), beside completing it: every quiz passed
 * (`quizzes`), every graded assignment passed (`assignments`), and an average of their scores of at
 * least `minimumAverage` percent. Absent: every quiz and every graded assignment passed, no average.
 */
const passRule = z.object({
	quizzes: z.boolean().default(true),
	assignments: z.boolean().default(true),
	minimumAverage: z.number().int().min(0).max(100).nullable().default(null),
})

export const course = courseSummary.extend({
	description: z.string(),
	/** The locale `description` was served in; absent means the same as `locale`. */
	descriptionLocale: locale.optional(),
	modules: z.array(module_),
	certificate: certificateSetting.optional(),
	passRule: passRule.optional(),
})

const questionBase = {
	id: z.string(),
	prompt: z.string(),
	explanation: z.string(),
	/** The locale the prompt (and its explanation and options) were served in; absent means the entry's `bodyLocale`. */
	locale: locale.optional(),
}
const option = z.object({ id: z.string(), text: z.string() })

/** Server-only: includes correct and accepted answers. */
const quizQuestion = z.discriminatedUnion('type', [
	z.object({
		...questionBase,
		type: z.literal('multiple_choice'),
		options: z.array(option).min(2),
		correctOptionId: z.string(),
	}),
	z.object({ ...questionBase, type: z.literal('true_false'), correct: z.boolean() }),
	z.object({ ...questionBase, type: z.literal('short_answer'), acceptedAnswers: z.array(z.string()).min(1) }),
])

/**
 * The older rule of when a learner may see a quiz's correct answers (decision 0022), still read
 * when `showAnswers` is absent (decision 0054 maps it).
 */
const revealAnswers = z.enum(['after_pass_or_last_attempt', 'never', 'always'])

/**
 * When a learner may see a quiz's correct answers and explanations (decision 0054), chosen by
 * staff per quiz. Absent: the older `revealAnswers`, else `after_last_attempt`.
 */
const SHOW_ANSWERS = ['never', 'after_each_attempt', 'after_last_attempt', 'after_due_date', 'after_passing'] as const
const showAnswers = z.enum(SHOW_ANSWERS)

const quiz = z.object({
	maxAttempts: z.number().int().min(1),
	passingScore: z.number().min(0).max(100),
	revealAnswers: revealAnswers.optional(),
	showAnswers: showAnswers.optional(),
	/** Questions and their options in an order drawn afresh for each attempt (decision 0054); absent: as authored. */
	shuffle: z.boolean().optional(),
	questions: z.array(quizQuestion).min(1),
})

/** Client-safe: the same quiz without answers or explanations. */
const publicBase = { id: z.string(), prompt: z.string(), locale: locale.optional() }
const quizPublicQuestion = z.discriminatedUnion('type', [
	z.object({ ...publicBase, type: z.literal('multiple_choice'), options: z.array(option) }),
	z.object({ ...publicBase, type: z.literal('true_false') }),
	z.object({ ...publicBase, type: z.literal('short_answer') }),
])

const quizPublic = z.object({
	maxAttempts: z.number().int(),
	passingScore: z.number(),
	questions: z.array(quizPublicQuestion),
})

/** What a learner may hand in as a file (decision 0027): extensions, each checked against the file's bytes. */
export const HAND_IN_FILE_TYPES = ['pdf', 'png', 'jpg', 'webp', 'txt', 'md', 'docx', 'zip'] as const

/**
 * An assignment's hand-in rules. Absent means an ungraded hand-in: handing anything in completes
 * the entry. Graded: the entry completes on a passing grade (`passingScore` points, else any grade).
 */
const assignment = z
	.object({
		graded: z.boolean(),
		maxScore: z.number().int().min(1).max(1000).default(100),
		passingScore: z.number().int().min(0).nullable().default(null),
		allowedFileTypes: z.array(z.enum(HAND_IN_FILE_TYPES)).min(1).optional(),
		instructions: z.string().optional(),
		/** The locale `instructions` were served in; absent means the entry's `bodyLocale`. */
		instructionsLocale: locale.optional(),
	})
	.refine((a) => a.passingScore === null || a.passingScore <= a.maxScore, {
		message: 'passingScore above maxScore',
		path: ['passingScore'],
	})

export const entry = z.object({
	slug: z.string(),
	type: entryType,
	courseSlug: z.string(),
	moduleSlug: z.string(),
	title: z.string(),
	body: z.string(),
	estimatedMinutes: z.number().nullable(),
	/** The locale the title was served in. */
	locale,
	/** The locale `body` (and the assignment's instructions) were served in; absent means the same as `locale`. */
	bodyLocale: locale.optional(),
	quiz: quiz.nullable(),
	assignment: assignment.nullable().default(null),
	due: due.optional(),
})

export const site = z.object({
	name: z.string(),
	short_name: z.string(),
	description: z.string(),
	theme_color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
	background_color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
	accent_color: z
		.string()
		.regex(/^#[0-9a-fA-F]{6}$/)
		.optional(),
	security_contact: z.string().nullable(),
	favicon: z.string().nullable(),
	icon: z.string().nullable(),
	og_image: z.string().nullable(),
	updatedAt: isoDate,
	/** The locale `name` was served in. */
	locale,
	/** The locale `description` was served in; absent means the same as `locale`. */
	descriptionLocale: locale.optional(),
})

export const pageSummary = z.object({
	slug: z.string(),
	status: z.enum(['draft', 'published', 'archived']),
	listed: z.boolean(),
	parent: z.string().nullable(),
	order: z.number(),
	updatedAt: isoDate,
	title: z.string(),
	locale,
})

export const page = pageSummary.extend({
	body: z.string(),
	/** The locale `body` was served in; absent means the same as `locale` (the title's). */
	bodyLocale: locale.optional(),
})

export interface PageHierarchyNode {
	slug: string
	title: string
	/** The locale the title is in (en when the page has no translation); a service that omits it is trusted to match. */
	locale?: z.infer<typeof locale>
	children: PageHierarchyNode[]
}
export const pageHierarchyNode: z.ZodType<PageHierarchyNode> = z.lazy(() =>
	z.object({ slug: z.string(), title: z.string(), locale: locale.optional(), children: z.array(pageHierarchyNode) }),
)

export const blogPostSummary = z.object({
	slug: z.string(),
	status: z.enum(['draft', 'published', 'archived']),
	publishedAt: isoDate.nullable(),
	updatedAt: isoDate,
	author: z.string().nullable(),
	hero: z.string().nullable(),
	title: z.string(),
	excerpt: z.string(),
	/** The locale the title was served in. */
	locale,
	/** The locale `excerpt` was served in; absent means the same as `locale`. */
	excerptLocale: locale.optional(),
})

export const blogPost = blogPostSummary.extend({
	body: z.string(),
	/** The locale `body` was served in; absent means the same as `locale`. */
	bodyLocale: locale.optional(),
})

export const paginated = <T extends z.ZodType>(item: T) =>
	z.object({
		data: z.array(item),
		meta: z.object({
			page: z.number().int(),
			pageSize: z.number().int(),
			total: z.number().int(),
			totalPages: z.number().int(),
		}),
	})

export type CourseSummary = z.infer<typeof courseSummary>
export type Course = z.infer<typeof course>
export type Entry = z.infer<typeof entry>
export type Due = z.infer<typeof due>
export type Quiz = z.infer<typeof quiz>
export type PassRule = z.infer<typeof passRule>
export type Assignment = z.infer<typeof assignment>
export type HandInFileType = (typeof HAND_IN_FILE_TYPES)[number]
export type QuizPublic = z.infer<typeof quizPublic>
export type ShowAnswers = z.infer<typeof showAnswers>
export type Site = z.infer<typeof site>
export type Page = z.infer<typeof page>
export type BlogPost = z.infer<typeof blogPost>

/** Strips everything a learner must not see before submitting. */
export function toQuizPublic(q: Quiz): QuizPublic {
	return quizPublic.parse(q)
}

/** A course a visitor may see: published (archived courses answer 410, drafts 404). */
export function isPublished(c: CourseSummary) {
	return c.status === 'published' && c.publishedAt !== null
}

/** A course with a price above zero: a learner's own enrollment waits for payment (501); an admin grants a seat (decision 0040). */
export function isPaid(c: Pick<CourseSummary, 'price'>) {
	return Boolean(c.price && c.price.amount > 0)
}

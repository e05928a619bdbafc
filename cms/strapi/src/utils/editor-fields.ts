/**
 * What the course form says (decision 0073), and the forms of a site's categories and tags (0098),
 * its pages, posts and site document: per field [label, one line of help, placeholder], and
 * the form's rows ([field, width of 12]). A field of a type or component missing from its rows is
 * not on the form. The labels' translations are in src/admin/translations/.
 */
export const COURSE = 'api::course.course'
const CATEGORY = 'api::category.category'
const TAG = 'api::tag.tag'
const SITE = 'api::site.site'
const PAGE = 'api::page.page'
const POST = 'api::blog-post.blog-post'

/** A field's words on the form: its label, then a line of help and a placeholder when it has them. */
type Words = [label: string, help?: string, placeholder?: string]
/** A row of the form: each field with its width (of 12). */
type Row = [field: string, width: number][]

/** A category's or tag's words (decision 0098): its name in en and in each of the app's other locales. */
const listWords = (name: string, slug: string): Record<string, Words> => ({
	name: ['Name', 'What learners see in the catalogue, in English and in any language without its own.', name],
	slug: [
		'Filter value',
		"The end of the catalogue's address when learners filter by it, the same in every language. Left empty, it is made from the name.",
		slug,
	],
	nameEs: ['Name in Spanish'],
	nameFr: ['Name in French'],
	nameDe: ['Name in German'],
	namePt: ['Name in Portuguese'],
	nameZh: ['Name in Chinese'],
})
const LIST_LAYOUT: Row[] = [
	[
		['name', 6],
		['slug', 6],
	],
	[
		['nameEs', 6],
		['nameFr', 6],
	],
	[
		['nameDe', 6],
		['namePt', 6],
	],
	[['nameZh', 6]],
]

export const FIELDS: Record<string, Record<string, Words>> = {
	[COURSE]: {
		title: [
			'Course title',
			'What learners see in the catalogue and at the top of every page.',
			'e.g. Introduction to the web',
		],
		slug: [
			'Web address',
			"The end of the course's address. Left empty, it is made from the title; change it before publishing only.",
			'made from the title',
		],
		summary: [
			'Short summary',
			"One or two sentences shown on the course's card in the catalogue.",
			'What learners will be able to do',
		],
		description: ['About this course', "Shown on the course's page before learners enroll."],
		image: [
			'Course picture',
			"Shown on the course's page. A photo or drawing (PNG, JPEG or WebP), resized for each screen.",
		],
		estimatedMinutes: ['Time to complete (minutes)', 'An estimate shown to learners before they enroll.', 'e.g. 90'],
		passMinimumAverage: [
			'Average needed to pass (%)',
			'Learners pass when the average of their quiz scores and graded assignments reaches this. Empty: no minimum.',
			'e.g. 60',
		],
		passQuizzes: [
			'Every quiz must be passed',
			'On (or empty): a learner passes the course only once every quiz is passed.',
		],
		passAssignments: [
			'Every graded assignment must be passed',
			'On (or empty): a learner passes only once every graded assignment has a passing grade.',
		],
		certificate: ['Certificate', 'Passing learners receive a certificate they can share.'],
		listed: ['Shown in the catalogue', 'Off: only learners with the link find the course.'],
		featured: ['Featured on the home page', "On: shown on the school's home page."],
		priceAmount: ['Price (in cents)', 'Empty: free. 4900 is 49.00.', 'e.g. 4900'],
		priceCurrency: ['Currency', 'Three letters.', 'EUR'],
		publicationDate: ['Publication date', "The date shown as the course's publication."],
		archivedAt: ['Archive from', 'From then, learners see that the course has ended.'],
		categories: [
			'Categories',
			"The catalogue's filters this course appears under: your site's list (Category). The same in every language.",
		],
		tags: [
			'Tags',
			"Short words learners can filter the catalogue by: your site's list (Tag). The same in every language.",
		],
		updatedAt: ['Last change'],
		modules: [
			'Modules',
			'The parts of the course, each with its lessons, quizzes and assignments in the order learners take them.',
		],
	},
	'course.module': {
		title: ['Module title', "Learners see it above the module's lessons.", 'e.g. First steps'],
		entries: ['Lessons, quizzes and assignments', 'In the order learners take them.'],
	},
	'course.entry': {
		title: ['Title', 'Learners see it in the course outline.', 'e.g. Welcome'],
		type: [
			'Kind',
			'Set by the block you add below: quiz settings make a quiz, assignment settings an assignment. An assignment without settings: any file hands it in.',
		],
		body: ['Text', 'What learners read on this page. Images come from the media library.'],
		estimatedMinutes: ['Time (minutes)', 'An estimate shown in the outline.', 'e.g. 10'],
		dueAt: ['Due on', "The same moment for every learner, typed and shown in the school's time zone."],
		dueDaysAfterEnrollment: [
			'Due days after enrolling',
			'Each learner has this many days from their enrollment. "Due on" wins when both are set.',
			'e.g. 7',
		],
		quiz: ['Quiz settings and questions', 'For a quiz only: adding it hides the assignment settings.'],
		assignment: [
			'Assignment settings',
			'For an assignment only: adding it hides the quiz settings. Without it: handing in any file completes it.',
		],
	},
	'course.quiz': {
		maxAttempts: ['Attempts allowed', 'How many times a learner may take the quiz.', '3'],
		passingScore: ['Score needed to pass (%)', 'Learners pass with this share of right answers.', '70'],
		shuffle: ['Shuffle questions and choices', 'On: each attempt shows them in an order of its own.'],
		showAnswers: [
			'Show the right answers',
			'When learners see the right answers and explanations. Empty: once they pass or use every attempt.',
		],
		questions: ['Questions', 'One block per question.'],
	},
	'course.question': {
		prompt: ['Question', 'What learners are asked.', 'e.g. Which method changes data?'],
		options: [
			'Choices',
			'Multiple choice: add the choices and mark the right one. The other kinds of answer then hide.',
		],
		correct: [
			'True or false: the statement is true',
			'True/false question: set it (on: true, off: false). The choices and accepted answers then hide.',
		],
		acceptedAnswers: [
			'Short answer: accepted answers',
			'Short answer: one accepted answer per line (capitals do not matter). The choices then hide.',
			'one answer per line',
		],
		explanation: ['Explanation', 'Shown with the right answer.'],
	},
	'course.option': {
		text: ['Choice', 'What learners can pick.', 'e.g. POST'],
		correct: ['Right answer', 'On for the right choice.'],
	},
	'course.assignment': {
		graded: ['Graded by staff', 'On: staff grade each hand-in; a passing grade completes it.'],
		maxScore: ['Points', 'The grade is out of this many points.', '100'],
		passingScore: ['Points needed to pass', 'Empty: any grade passes.', 'e.g. 60'],
		allowedFileTypes: [
			'File types',
			'Comma separated, from pdf png jpg webp txt md docx zip. Empty: all of them.',
			'pdf, docx',
		],
		instructions: ['Instructions', 'Shown above the hand-in form.'],
	},
	'course.certificate': {
		enabled: ['Give a certificate', 'On: learners who pass the course receive a certificate.'],
		criteria: [
			'What the learner did',
			"Written on the certificate. Empty: the school's own sentence.",
			'e.g. Built and published a web page',
		],
	},
	[CATEGORY]: listWords('e.g. Web development', 'web-development'),
	[TAG]: listWords('e.g. Beginner', 'beginner'),
	[PAGE]: {
		title: ['Page title', 'Shown at the top of the page and in the menus.', 'e.g. About us'],
		slug: [
			'Web address',
			"The end of the page's address: lower-case letters, digits and hyphens. Change it before publishing only.",
			'about-us',
		],
		body: ['Text', 'What visitors read. Images come from the media library.'],
		listed: ['Shown in the menus', 'Off: only visitors with the link find the page.'],
		parent: [
			'Under the page',
			'The web address of the page this one sits under in the menus. Empty: at the top.',
			'about-us',
		],
		order: ['Place in the menu', 'Lower numbers come first.', '0'],
		archivedAt: ['Archive from', 'From then, visitors see that the page has been withdrawn.'],
	},
	[POST]: {
		title: ['Post title', 'Shown in the blog and at the top of the post.', 'e.g. Our new courses'],
		slug: [
			'Web address',
			"The end of the post's address: lower-case letters, digits and hyphens. Change it before publishing only.",
			'our-new-courses',
		],
		excerpt: ['Excerpt', "One or two sentences shown in the blog's list."],
		body: ['Text', 'What readers read. Images come from the media library.'],
		author: ['Author', 'The name shown under the title.', 'e.g. Ana Pérez'],
		hero: ['Picture', 'Shown above the post. A photo or drawing (PNG, JPEG or WebP).'],
		publicationDate: ['Publication date', 'The date shown on the post.'],
		archivedAt: ['Archive from', 'From then, readers see that the post has been withdrawn.'],
	},
	[SITE]: {
		name: [
			'School name',
			'Shown in the browser tab, the app icon and the emails learners receive.',
			'e.g. Acme Academy',
		],
		short_name: ['Short name', "Under the app's icon on a phone. Empty: the school name.", 'e.g. Acme'],
		description: ['Description', 'One or two sentences search engines and shared links show.'],
		theme_color: ['Theme colour', "The colour of the browser's bar on phones.", '#111827'],
		background_color: ['Background colour', 'Shown while the app opens on a phone.', '#ffffff'],
		accent_color: ['Accent colour', 'Buttons and links. Empty: the theme colour.', '#2563eb'],
		timeZone: ['Time zone', "Due dates are typed and shown in it. Set in the app's school settings, not here."],
		security_contact: [
			'Security contact',
			'Where to report a security problem (security.txt): an email address or a web address.',
			'mailto:security@example.org',
		],
		favicon: ['Browser tab icon', 'A small square picture (PNG or ICO).'],
		icon: ['App icon', 'A square picture of at least 512 × 512 pixels (PNG).'],
		og_image: ['Picture for shared links', 'Shown when a page of the school is shared (1200 × 630 pixels).'],
	},
}

export const LAYOUTS: Record<string, Row[]> = {
	[COURSE]: [
		[
			['title', 6],
			['slug', 6],
		],
		[
			['summary', 6],
			['estimatedMinutes', 4],
		],
		[['image', 6]],
		[['description', 12]],
		[['passMinimumAverage', 6]],
		[
			['passQuizzes', 6],
			['passAssignments', 6],
		],
		[['certificate', 12]],
		[
			['listed', 4],
			['featured', 4],
		],
		[
			['priceAmount', 4],
			['priceCurrency', 4],
		],
		[
			['publicationDate', 6],
			['archivedAt', 6],
		],
		[['categories', 12]],
		[['tags', 12]],
		[['modules', 12]],
	],
	'course.module': [[['title', 12]], [['entries', 12]]],
	'course.entry': [
		[
			['title', 6],
			['type', 6],
		],
		[['body', 12]],
		[
			['dueAt', 6],
			['dueDaysAfterEnrollment', 4],
		],
		[['estimatedMinutes', 4]],
		[['quiz', 12]],
		[['assignment', 12]],
	],
	'course.quiz': [
		[
			['maxAttempts', 4],
			['passingScore', 4],
			['shuffle', 4],
		],
		[['showAnswers', 6]],
		[['questions', 12]],
	],
	'course.question': [
		[
			['prompt', 6],
			['explanation', 6],
		],
		[['options', 12]],
		[
			['correct', 6],
			['acceptedAnswers', 6],
		],
	],
	'course.option': [
		[
			['text', 6],
			['correct', 4],
		],
	],
	'course.assignment': [
		[
			['graded', 4],
			['maxScore', 4],
			['passingScore', 4],
		],
		[['allowedFileTypes', 6]],
		[['instructions', 12]],
	],
	'course.certificate': [[['enabled', 4]], [['criteria', 6]]],
	[CATEGORY]: LIST_LAYOUT,
	[TAG]: LIST_LAYOUT,
	// The site is the author's (from their role): not on the forms.
	[PAGE]: [
		[
			['title', 6],
			['slug', 6],
		],
		[['body', 12]],
		[
			['listed', 4],
			['parent', 4],
			['order', 4],
		],
		[['archivedAt', 6]],
	],
	[POST]: [
		[
			['title', 6],
			['slug', 6],
		],
		[['excerpt', 12]],
		[
			['hero', 6],
			['author', 6],
		],
		[['body', 12]],
		[
			['publicationDate', 6],
			['archivedAt', 6],
		],
	],
	// The key (which site it is) is the app's: not on the form.
	[SITE]: [
		[
			['name', 6],
			['short_name', 6],
		],
		[['description', 12]],
		[
			['theme_color', 4],
			['background_color', 4],
			['accent_color', 4],
		],
		[
			['timeZone', 6],
			['security_contact', 6],
		],
		[
			['favicon', 4],
			['icon', 4],
			['og_image', 4],
		],
	],
}

/** The columns of a type's list (no ids, no site: an author sees only their own site's). */
export const LISTS: Record<string, string[]> = {
	[COURSE]: ['title', 'slug', 'listed', 'updatedAt'],
	[CATEGORY]: ['name', 'slug', 'updatedAt'],
	[TAG]: ['name', 'slug', 'updatedAt'],
	[SITE]: ['name', 'timeZone', 'updatedAt'],
	[PAGE]: ['title', 'slug', 'listed', 'updatedAt'],
	[POST]: ['title', 'slug', 'publicationDate', 'updatedAt'],
}

/** The field a folded block shows as its title. */
export const TITLES: Record<string, string> = {
	[COURSE]: 'title',
	'course.module': 'title',
	'course.entry': 'title',
	'course.question': 'prompt',
	'course.option': 'text',
	// What a course's relation shows of each category or tag it lists.
	[CATEGORY]: 'name',
	[TAG]: 'name',
	[SITE]: 'name',
	[PAGE]: 'title',
	[POST]: 'title',
}

/**
 * What the course form says (decision 0073): per field [label, one line of help, placeholder], and
 * the form's rows ([field, width of 12]). A field of a type or component missing from its rows is
 * not on the form. The labels' translations are in src/admin/translations/.
 */
export const COURSE = 'api::course.course'

/** A field's words on the form: its label, then a line of help and a placeholder when it has them. */
type Words = [label: string, help?: string, placeholder?: string]
/** A row of the form: each field with its width (of 12). */
type Row = [field: string, width: number][]

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
		categories: ['Categories', "The catalogue's filters this course appears under."],
		tags: ['Tags', 'Short words learners can filter the catalogue by.'],
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
		quiz: ['Quiz settings and questions', 'For a quiz only.'],
		assignment: ['Assignment settings', 'For an assignment only. Without it: handing in any file completes it.'],
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
		options: ['Choices', 'Multiple choice: add the choices and mark the right one.'],
		correct: [
			'True or false: the statement is true',
			'True/false question: set it (on: true, off: false) and leave the choices empty.',
		],
		acceptedAnswers: [
			'Short answer: accepted answers',
			'Short answer: one accepted answer per line (capitals do not matter), no choices.',
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
	'course.label': {
		name: ['Name', 'What learners see.', 'e.g. Web development'],
		slug: ['Filter value', 'Lower-case letters, digits and hyphens; the same in every language.', 'web-development'],
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
	'course.label': [
		[
			['name', 6],
			['slug', 6],
		],
	],
}

/** The columns of a type's list (no ids, no site: an author sees only their own site's). */
export const LISTS: Record<string, string[]> = { [COURSE]: ['title', 'slug', 'listed', 'updatedAt'] }

/** The field a folded block shows as its title. */
export const TITLES: Record<string, string> = {
	[COURSE]: 'title',
	'course.module': 'title',
	'course.entry': 'title',
	'course.question': 'prompt',
	'course.option': 'text',
	'course.label': 'name',
}

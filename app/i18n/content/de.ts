import type en from './en.ts'

export default {
	home: {
		featured: 'Empfohlene Kurse',
		newest: 'Neue Kurse',
		apexIntro:
			'Jede Schule und jedes Unternehmen hat eine eigene Lernplattform unter einer eigenen Adresse, etwa {example}, oder unter einer eigenen Domain.',
		browse: 'Kurse ansehen',
	},
	blog: {
		title: 'Blog',
		empty: 'Bisher wurde noch nichts veröffentlicht.',
		posts: 'Beiträge',
	},
	page: {
		title: 'Seite',
	},
} satisfies typeof en

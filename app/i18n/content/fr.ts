import type en from './en.ts'

export default {
	home: {
		featured: 'Cours à la une',
		newest: 'Nouveaux cours',
		apexIntro:
			'Chaque école ou entreprise a son propre site de formation à sa propre adresse, par exemple {example}, ou sur un domaine à elle.',
		browse: 'Parcourir les cours',
	},
	blog: {
		title: 'Blog',
		empty: 'Rien n’a encore été publié.',
		posts: 'Articles',
	},
	page: {
		title: 'Page',
	},
} satisfies typeof en

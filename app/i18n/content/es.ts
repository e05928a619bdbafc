import type en from './en.ts'

export default {
	home: {
		featured: 'Cursos destacados',
		newest: 'Cursos nuevos',
		apexIntro:
			'Cada escuela o empresa tiene su propio sitio de aprendizaje en su propia dirección, como {example}, o en un dominio propio.',
		browse: 'Ver los cursos',
	},
	blog: {
		title: 'Blog',
		empty: 'Todavía no se ha publicado nada.',
		posts: 'Artículos',
	},
	page: {
		title: 'Página',
	},
} satisfies typeof en

import type en from './en.ts'

export default {
	home: {
		featured: 'Cursos em destaque',
		newest: 'Cursos novos',
		apexIntro:
			'Cada escola ou empresa tem o seu próprio site de aprendizagem no seu próprio endereço, como {example}, ou em um domínio próprio.',
		browse: 'Ver os cursos',
	},
	blog: {
		title: 'Blog',
		empty: 'Ainda não há nenhuma publicação.',
		posts: 'Publicações',
	},
	page: {
		title: 'Página',
	},
} satisfies typeof en

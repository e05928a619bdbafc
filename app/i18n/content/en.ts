// Public content pages of a site: the home page, the blog and CMS pages.
export default {
	home: {
		featured: 'Featured courses',
		newest: 'New courses',
		apexIntro:
			'Each school or company has its own learning site on its own address, such as {example} or a domain of its own.',
		browse: 'Browse courses',
	},
	blog: {
		title: 'Blog',
		empty: 'Nothing has been posted yet.',
		posts: 'Posts',
	},
	page: {
		title: 'Page',
	},
}

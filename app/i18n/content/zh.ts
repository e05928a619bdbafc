import type en from './en.ts'

export default {
	home: {
		featured: '精选课程',
		newest: '最新课程',
		apexIntro: '每所学校或公司都在自己的地址上拥有独立的学习站点，例如 {example}，也可以使用自己的域名。',
		browse: '浏览课程',
	},
	blog: {
		title: '博客',
		empty: '暂时还没有发布任何内容。',
		posts: '文章',
	},
	page: {
		title: '页面',
	},
} satisfies typeof en

module.exports = () => ({
	// The app resizes images itself (its asset proxy, ?w=): Strapi keeps the original only.
	upload: {
		config: {
			sizeLimit: 25 * 1024 * 1024,
			breakpoints: {},
		},
	},
})

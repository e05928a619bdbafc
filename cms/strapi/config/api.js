module.exports = {
	rest: { defaultLimit: 20, maxLimit: 100, withCount: true },
}

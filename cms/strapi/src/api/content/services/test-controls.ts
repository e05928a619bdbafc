/**
 * What the tests may see and change (CMS_TEST_CONTROLS=true only), as the local content service's
 * _stats and _control: counts of the content API's requests, and faults to inject into its answers.
 */
function testControls() {
	const stats = {
		total: 0,
		byPath: {} as Record<string, number>,
		byLocale: {} as Record<string, number>,
		byStatus: {} as Record<string, number>,
	}
	const faults = { delayMs: 0, mode: 'ok' as 'ok' | 'error' | 'garbage' }
	return {
		stats,
		faults,
		reset() {
			Object.assign(stats, { total: 0, byPath: {}, byLocale: {}, byStatus: {} })
		},
	}
}

export type TestControls = ReturnType<typeof testControls>
export default testControls

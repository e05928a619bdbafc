/**
 * The app's key (`x-api-key: <CMS_API_UUID>`) and project (CMS_PROJECT_UUID): what the content API
 * and the authoring endpoints ask of a request (the key is their policy, policies/api-key.ts).
 */
import { timingSafeEqual } from 'node:crypto'

export function createKeyCheck(key = process.env.CMS_API_UUID ?? '') {
	const expected = Buffer.from(key)
	return (given: unknown) => {
		const b = Buffer.from(String(given ?? ''))
		return expected.length > 0 && b.length === expected.length && timingSafeEqual(b, expected)
	}
}

export const project = () => process.env.CMS_PROJECT_UUID ?? ''

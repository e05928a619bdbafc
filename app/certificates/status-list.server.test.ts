import { decodeList } from '@digitalbazaar/vc-bitstring-status-list'
import { describe, expect, it } from 'vitest'
import { encodeStatusList, STATUS_LIST_SIZE } from './status-list.server.ts'

describe('encodeStatusList', () => {
	it('sets exactly the revoked indexes, as the Bitstring Status List reference implementation reads them', async () => {
		const revoked = [0, 7, 8, 1000, STATUS_LIST_SIZE - 1]
		const encoded = encodeStatusList(revoked)
		expect(encoded.startsWith('u')).toBe(true)
		const list = await decodeList({ encodedList: encoded })
		expect(list.length).toBe(STATUS_LIST_SIZE)
		for (const index of [...revoked, 1, 6, 9, 999, 1001, STATUS_LIST_SIZE - 2])
			expect(list.getStatus(index), String(index)).toBe(revoked.includes(index))
	})

	it('encodes an empty list to all zeros of the minimum size', async () => {
		const list = await decodeList({ encodedList: encodeStatusList([]) })
		expect(list.length).toBe(STATUS_LIST_SIZE)
		expect([0, 65_536, STATUS_LIST_SIZE - 1].map((i) => list.getStatus(i))).toEqual([false, false, false])
	})
})

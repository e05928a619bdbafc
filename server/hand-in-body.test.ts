import { describe, expect, it } from 'vitest'
import { createHandInGate } from './hand-in-body.ts'

describe('the hand-in gate', () => {
	it('lets `limit` in, queues as many again for a while, hands freed slots over in order, and turns the rest away', async () => {
		const gate = createHandInGate(2, 200)
		const a = await gate.acquire()
		const b = await gate.acquire()
		expect(a && b).toBeTruthy()
		const order: string[] = []
		const c = gate.acquire().then((r) => (order.push('c'), r))
		const d = gate.acquire().then((r) => (order.push('d'), r))
		// The queue is as long as the slots: a fifth is turned away at once.
		expect(await gate.acquire()).toBeNull()
		a!()
		a!() // given back once, however often called
		const gotC = await c
		expect(gotC).toBeTruthy()
		expect(gate.active).toBe(2)
		// d waits past its 200 ms and is turned away.
		expect(await d).toBeNull()
		expect(order).toEqual(['c', 'd'])
		b!()
		gotC!()
		expect(gate.active).toBe(0)
	})
})

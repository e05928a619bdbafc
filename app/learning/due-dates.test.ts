import { describe, expect, it } from 'vitest'
import { dueAtFor, dueState, instantInZone, isTimeZone, localInZone } from './due-dates.ts'
import { isLate } from '#db/due-dates.ts'

const enrolled = new Date('2026-11-01T10:30:00Z')

describe('dueAtFor', () => {
	it('takes an absolute due date as it is, for every enrollment', () => {
		expect(dueAtFor({ at: '2027-01-15T17:00:00+01:00' }, enrolled)?.toISOString()).toBe('2027-01-15T16:00:00.000Z')
		expect(dueAtFor({ at: '2027-01-15T17:00:00+01:00' }, new Date(0))?.toISOString()).toBe('2027-01-15T16:00:00.000Z')
	})

	it('counts a relative due date in whole days from enrolled_at', () => {
		expect(dueAtFor({ daysAfterEnrollment: 7 }, enrolled)?.toISOString()).toBe('2026-11-08T10:30:00.000Z')
		expect(dueAtFor({ daysAfterEnrollment: 0 }, enrolled)?.toISOString()).toBe(enrolled.toISOString())
	})

	it('lets an extension win over either rule, and says null when the entry is not due', () => {
		const extension = new Date('2026-12-24T12:00:00Z')
		expect(dueAtFor({ daysAfterEnrollment: 7 }, enrolled, extension)).toBe(extension)
		expect(dueAtFor({ at: '2026-11-02T00:00:00Z' }, enrolled, extension)).toBe(extension)
		expect(dueAtFor(undefined, enrolled)).toBeNull()
	})
})

describe('dueState and isLate', () => {
	const due = new Date('2026-11-10T12:00:00Z')
	it('is overdue after the instant, soon within seven days, later beyond, done whatever the date', () => {
		expect(dueState(due, false, new Date('2026-11-10T12:00:01Z'))).toBe('overdue')
		expect(dueState(due, false, new Date('2026-11-10T12:00:00Z'))).toBe('soon')
		expect(dueState(due, false, new Date('2026-11-03T12:00:00Z'))).toBe('soon')
		expect(dueState(due, false, new Date('2026-11-03T11:59:59Z'))).toBe('later')
		expect(dueState(due, true, new Date('2026-12-01T00:00:00Z'))).toBe('done')
	})

	it('marks a hand-in late only strictly after the due instant, never without one', () => {
		expect(isLate(due, new Date('2026-11-10T12:00:00Z'))).toBe(false)
		expect(isLate(due, new Date('2026-11-10T12:00:00.001Z'))).toBe(true)
		expect(isLate(null, new Date('2030-01-01T00:00:00Z'))).toBe(false)
	})
})

describe('time zones', () => {
	it('knows IANA names and refuses everything else', () => {
		expect(isTimeZone('Europe/Paris')).toBe(true)
		expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true)
		expect(isTimeZone('Asia/Kolkata')).toBe(true)
		expect(isTimeZone('UTC')).toBe(true)
		for (const bad of ['europe/paris', 'Mars/Olympus', '', 'Europe/Paris\u0000', '../etc', 'Europe/Paris ', 'GMT+5'])
			expect(isTimeZone(bad), bad).toBe(false)
	})

	it('reads a wall-clock time in a zone, across daylight saving, and writes it back', () => {
		expect(instantInZone('2026-07-01T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-07-01T07:00:00.000Z')
		expect(instantInZone('2026-12-01T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-12-01T08:00:00.000Z')
		expect(instantInZone('2026-12-01T09:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-12-01T03:30:00.000Z')
		expect(instantInZone('2026-12-01T09:00', 'UTC')?.toISOString()).toBe('2026-12-01T09:00:00.000Z')
		expect(localInZone(new Date('2026-07-01T07:00:00Z'), 'Europe/Paris')).toBe('2026-07-01T09:00')
		for (const bad of ['2026-02-30T09:00', '2026-12-01T24:00', '2026-12-01 09:00', '2026-12-01T09:00Z', ''])
			expect(instantInZone(bad, 'UTC'), bad).toBeNull()
	})
})

import type { z } from 'zod'
import type { price } from './content.ts'

export function formatPrice(p: z.infer<typeof price>, locale: string) {
	return new Intl.NumberFormat(locale, { style: 'currency', currency: p.currency }).format(p.amount / 100)
}

export function formatMinutes(minutes: number, locale: string) {
	return new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes)
}

export function formatDate(iso: string, locale: string) {
	return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))
}

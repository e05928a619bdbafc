/**
 * A translation may leave any text empty, its title too: the content API serves what it lacks from
 * en, field by field, as the local content service does (decision 0050), so a course may have its
 * category names or its certificate's criteria in French without a French title. en is the
 * canonical document, so its title (a site's: its name) must not be empty. Strapi's `required`
 * cannot say "in en only" (it holds in every locale and would refuse to publish such a
 * translation): these database lifecycles (each type's lifecycles.ts) check it when a row of en is
 * written.
 */
import { errors } from '@strapi/utils'

const DEFAULT_LOCALE = 'en'
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === ''

/** What a database lifecycle hook of these is given (Strapi's Event, narrowed to what is read). */
type Event = {
	model: { uid: string }
	params: { data?: Record<string, unknown> | null; where?: Record<string, unknown> }
}

export function requireInDefaultLocale(field: string) {
	const refuse = () => {
		const message = `${field} is required in English (en), the language every other one falls back to`
		throw new errors.ValidationError(message, { errors: [{ path: [field], message, name: 'ValidationError' }] })
	}
	return {
		beforeCreate(event: Event) {
			const data = event.params.data ?? {}
			if ((data.locale ?? DEFAULT_LOCALE) === DEFAULT_LOCALE && blank(data[field])) refuse()
		},
		async beforeUpdate(event: Event) {
			const data = event.params.data ?? {}
			if (!(field in data) || !blank(data[field])) return
			// Lifecycles are given no strapi: the global one, set once Strapi has started.
			const row = await strapi.db.query(event.model.uid).findOne({ where: event.params.where, select: ['locale'] })
			if ((data.locale ?? row?.locale) === DEFAULT_LOCALE) refuse()
		},
	}
}

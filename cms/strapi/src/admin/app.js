// The admin panel in the app's six languages (decision 0073): Strapi's own screens in each, and
// the course form's labels, help lines and placeholders (src/utils/editor-fields.ts, help.js) translated here. The app's zh is Strapi's
// zh-Hans. Built by `strapi build` (scripts/build-admin.js).
import de from './translations/de.json'
import es from './translations/es.json'
import fr from './translations/fr.json'
import pt from './translations/pt.json'
import zhHans from './translations/zh-Hans.json'
import { helpInAdminLanguage } from './help.js'
import { PublicUrlPanel } from './public-url.jsx'
import { TranslationStatusPanel } from './translation-status.jsx'

const translations = { es, fr, de, pt, 'zh-Hans': zhHans }

export default {
	config: {
		locales: ['es', 'fr', 'de', 'pt', 'zh-Hans'],
		translations,
		tutorials: false,
		notifications: { releases: false },
	},
	register(app) {
		// Due dates in the school's time zone (zoned-datetime.jsx; the server's half in src/index.ts).
		app.customFields.register({
			name: 'zoned-datetime',
			type: 'datetime',
			intlLabel: { id: 'lms.zonedDatetime.label', defaultMessage: "Date and time in the school's time zone" },
			intlDescription: {
				id: 'lms.zonedDatetime.description',
				defaultMessage: "Typed and shown in the site's time zone, stored as an instant",
			},
			components: {
				Input: async () => import('./zoned-datetime.jsx').then((m) => ({ default: m.ZonedDateTimeInput })),
			},
		})
	},
	bootstrap(app) {
		// The form's help lines and placeholders in the admin's language (help.js).
		app.registerHook('Admin/CM/pages/EditView/mutate-edit-view-layout', helpInAdminLanguage(translations))
		// A course's public page, once published (public-url.jsx); what a translation still lacks (translation-status.jsx).
		app.getPlugin('content-manager').apis.addEditViewSidePanel([PublicUrlPanel, TranslationStatusPanel])
	},
}

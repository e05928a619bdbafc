// The admin panel in the app's six languages (decision 0073): Strapi's own screens in each, and
// the course form's labels (src/utils/editor-fields.ts) translated here. The app's zh is Strapi's
// zh-Hans. Built by `strapi build` (scripts/build-admin.js).
import de from './translations/de.json'
import es from './translations/es.json'
import fr from './translations/fr.json'
import pt from './translations/pt.json'
import zhHans from './translations/zh-Hans.json'
import { PublicUrlPanel } from './public-url.jsx'

export default {
	config: {
		locales: ['es', 'fr', 'de', 'pt', 'zh-Hans'],
		translations: { es, fr, de, pt, 'zh-Hans': zhHans },
		tutorials: false,
		notifications: { releases: false },
	},
	bootstrap(app) {
		// A course's public page, once published (public-url.jsx).
		app.getPlugin('content-manager').apis.addEditViewSidePanel([PublicUrlPanel])
	},
}

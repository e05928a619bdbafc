'use strict'
/**
 * The course form in a teacher's words (issue 51, decision 0073): the content manager's view
 * configuration of the course and its components (labels, one line of help, placeholders, order
 * and widths of the fields, the title each folded block shows), written at every boot over what
 * Strapi generated. Ids a teacher never types (the site, module and entry slugs, question and
 * option keys: src/lms/autofill.js fills them) and the older fields (`passRule`,
 * `correctOptionKey`, `revealAnswers`; src/lms/migrate.js moved them) are left off the form.
 * Labels are English here; the admin's own translations (src/admin/app.js) say them in the app's
 * other locales.
 */
const { FIELDS, LAYOUTS, LISTS, TITLES } = require('./editor-fields')

const withMeta = (current, fields) => {
	const metadatas = { ...(current.metadatas ?? {}) }
	for (const [name, [label, description = '', placeholder = '']] of Object.entries(fields)) {
		const old = metadatas[name] ?? { edit: {}, list: {} }
		metadatas[name] = {
			...old,
			edit: { ...old.edit, label, description, placeholder, visible: true, editable: true },
			list: { ...old.list, label },
		}
	}
	return metadatas
}

async function configure(service, uid, kind) {
	const model = kind === 'component' ? strapi.components[uid] : strapi.contentTypes[uid]
	if (!model) return
	const current = await service.findConfiguration(kind === 'component' ? model : { uid })
	const metadatas = withMeta(current, FIELDS[uid] ?? {})
	// A field left off the form (an id, an older field): hidden from its edit view.
	const shown = new Set(LAYOUTS[uid].flat().map(([name]) => name))
	for (const name of Object.keys(model.attributes))
		if (metadatas[name] && !shown.has(name))
			metadatas[name] = { ...metadatas[name], edit: { ...metadatas[name].edit, visible: false } }
	const edit = LAYOUTS[uid].map((row) => row.map(([name, size]) => ({ name, size })))
	await service.updateConfiguration(kind === 'component' ? model : { uid }, {
		settings: { ...current.settings, ...(TITLES[uid] ? { mainField: TITLES[uid] } : {}) },
		metadatas,
		layouts: { ...current.layouts, edit, ...(LISTS[uid] ? { list: LISTS[uid] } : {}) },
	})
}

async function configureEditor(strapi) {
	const cm = strapi.plugin('content-manager')
	for (const uid of Object.keys(LAYOUTS)) {
		const kind = uid.startsWith('api::') ? 'type' : 'component'
		await configure(cm.service(kind === 'type' ? 'content-types' : 'components'), uid, kind)
	}
}

module.exports = { configureEditor }

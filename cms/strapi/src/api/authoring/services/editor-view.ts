/**
 * The course form in a teacher's words (issue 51, decision 0073): the content manager's view
 * configuration of the course and its components (labels, one line of help, placeholders, order
 * and widths of the fields, the title each folded block shows), written at every boot over what
 * Strapi generated. Ids a teacher never types (the site, module and entry slugs, question and
 * option keys: src/utils/autofill.ts fills them) and the older fields (`passRule`,
 * `correctOptionKey`, `revealAnswers`; api::authoring.editor-migration moved them) are left off the
 * form. Labels are English here (src/utils/editor-fields.ts); the admin's own translations
 * (src/admin/app.js) say them in the app's other locales.
 */
import type { Core } from '@strapi/strapi'
import { FIELDS, LAYOUTS, LISTS, TITLES } from '../../../utils/editor-fields'

/** A field's view settings in the content manager (its edit form's and its list's). */
type Meta = { edit: Record<string, unknown>; list: Record<string, unknown> }
/** The content manager's view configuration of a type or component, as far as it is rewritten here. */
type Configuration = {
	settings?: Record<string, unknown>
	metadatas?: Record<string, Meta>
	layouts?: Record<string, unknown>
}
/** The content manager's services for types and for components: both read and write a configuration. */
type ConfigurationService = {
	findConfiguration(target: unknown): Promise<Configuration>
	updateConfiguration(target: unknown, configuration: Configuration): Promise<unknown>
}

const withMeta = (current: Configuration, fields: (typeof FIELDS)[string]) => {
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

const editorView = ({ strapi }: { strapi: Core.Strapi }) => {
	async function configure(service: ConfigurationService, uid: string, kind: 'type' | 'component') {
		const model: { attributes: Record<string, unknown> } | undefined =
			kind === 'component'
				? strapi.components[uid as keyof typeof strapi.components]
				: strapi.contentTypes[uid as keyof typeof strapi.contentTypes]
		if (!model) return
		const target = kind === 'component' ? model : { uid }
		const current = await service.findConfiguration(target)
		const metadatas = withMeta(current, FIELDS[uid] ?? {})
		// A relation shows each document it lists by that type's title (a category's name), not by its
		// first text field (the site).
		for (const [name, attribute] of Object.entries(model.attributes as Record<string, { target?: string }>)) {
			const title = attribute.target && TITLES[attribute.target]
			if (title && metadatas[name])
				metadatas[name] = {
					edit: { ...metadatas[name].edit, mainField: title },
					list: { ...metadatas[name].list, mainField: title },
				}
		}
		// A field left off the form (an id, an older field): hidden from its edit view.
		const shown = new Set(LAYOUTS[uid].flat().map(([name]) => name))
		for (const name of Object.keys(model.attributes))
			if (metadatas[name] && !shown.has(name))
				metadatas[name] = { ...metadatas[name], edit: { ...metadatas[name].edit, visible: false } }
		const edit = LAYOUTS[uid].map((row) => row.map(([name, size]) => ({ name, size })))
		await service.updateConfiguration(target, {
			settings: { ...current.settings, ...(TITLES[uid] ? { mainField: TITLES[uid] } : {}) },
			metadatas,
			layouts: { ...current.layouts, edit, ...(LISTS[uid] ? { list: LISTS[uid] } : {}) },
		})
	}

	return {
		/** Writes the course form's configuration (at every boot, after Strapi wrote its own). */
		async configure() {
			const cm = strapi.plugin('content-manager')
			for (const uid of Object.keys(LAYOUTS)) {
				const kind = uid.startsWith('api::') ? 'type' : 'component'
				await configure(cm.service(kind === 'type' ? 'content-types' : 'components'), uid, kind)
			}
		},
	}
}

export type EditorView = ReturnType<typeof editorView>
export default editorView

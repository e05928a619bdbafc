// The course form's help lines and placeholders in the admin's language (issue 51). Strapi translates a
// field's label by a message id of its own (translations/<locale>.json), but shows its help line and
// placeholder as the view configuration states them, in English (src/utils/editor-fields.ts): so the
// edit view's layout is rewritten here, field by field, from `lms.help.<uid>.<field>` and
// `lms.placeholder.<uid>.<field>` in the admin's language; a field without one keeps the English.

/**
 * A hook of Strapi's content manager (Admin/CM/pages/EditView/mutate-edit-view-layout) over the admin's
 * translations, by locale (app.js's).
 */
export const helpInAdminLanguage =
	(translations) =>
	({ layout, query }) => {
		const messages = translations[window.localStorage.getItem('strapi-admin-language')]
		if (!messages) return { layout, query }
		const model = /\/content-manager\/(?:collection|single)-types\/([^/?#]+)/.exec(window.location.pathname)?.[1]
		const words = (uid) => (field) => ({
			...field,
			hint: messages[`lms.help.${uid}.${field.name}`] ?? field.hint,
			placeholder: messages[`lms.placeholder.${uid}.${field.name}`] ?? field.placeholder,
		})
		const components = Object.fromEntries(
			Object.entries(layout.components ?? {}).map(([uid, component]) => [
				uid,
				{ ...component, layout: component.layout.map((row) => row.map(words(uid))) },
			]),
		)
		const panels = model
			? layout.layout.map((panel) => panel.map((row) => row.map(words(decodeURIComponent(model)))))
			: layout.layout
		return { layout: { ...layout, layout: panels, components }, query }
	}

/** Text made safe for HTML content and attribute values (numeric character references). */
export function escapeHtml(text: string) {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

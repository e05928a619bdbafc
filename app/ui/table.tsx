/**
 * A data table on a narrow screen: it scrolls sideways inside its own region, with a shadow at
 * the edge that has more, and the page itself never scrolls sideways. The region takes keyboard
 * focus so it can be scrolled without a pointer, and is named for screen readers.
 *
 * `cards`: a list of things with actions (courses, users, tenants) is read a row at a time, so on
 * a phone each row becomes a card instead, every action in view (issue 52): the first cell is its
 * title, each other cell says what it is by its `data-label` (the column's heading).
 */
export function ScrollTable({
	label,
	cards = false,
	children,
}: {
	label: string
	cards?: boolean
	children: React.ReactNode
}) {
	return (
		// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (WCAG 2.1.1)
		<div className={cards ? 'table-scroll table-cards' : 'table-scroll'} role="region" aria-label={label} tabIndex={0}>
			<table>{children}</table>
		</div>
	)
}

/**
 * A data table on a narrow screen: it scrolls sideways inside its own region, with a shadow at
 * the edge that has more, and the page itself never scrolls sideways. The region takes keyboard
 * focus so it can be scrolled without a pointer, and is named for screen readers.
 */
export function ScrollTable({ label, children }: { label: string; children: React.ReactNode }) {
	return (
		// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (WCAG 2.1.1)
		<div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
			<table>{children}</table>
		</div>
	)
}

/** Shown on every page of a course while staff preview it: nothing is recorded. */
export function PreviewBanner() {
	return (
		<div className="banner banner-preview" role="status">
			<strong>Preview mode.</strong> You see the course as a learner would, without enrollment or locks. Nothing you do here is saved.
		</div>
	)
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
	return (
		<div className="progress">
			<progress max={100} value={percent} aria-label={label}>
				{percent}%
			</progress>
			<span>
				{`${percent}% · ${label}`}
			</span>
		</div>
	)
}

/** Shown to a super_admin on the apex for pages that belong to one tenant. */
export function TenantHint({ title, what }: { title: string; what: string }) {
	return (
		<section>
			<h1>{title}</h1>
			<p className="notice notice-info">
				{`${what} belong to a tenant. `}
				<a href="/admin/tenants">Open the tenant</a> first.
			</p>
		</section>
	)
}

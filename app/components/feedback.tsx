import { useNavigation } from 'react-router'
import { useI18n } from '#app/i18n/index.ts'

// Apart from the form fields (./form.tsx) so that pages with a button and no
// fields (the course home, entries) load no form library.

/** A submit button that says it is working while its form is being sent (with JavaScript; without it, the browser shows its own progress). */
export function Submit({
	children,
	name,
	value,
	className = 'button',
	disabled,
}: {
	children: React.ReactNode
	name?: string
	value?: string
	className?: string
	disabled?: boolean
}) {
	const navigation = useNavigation()
	const { m } = useI18n()
	const pending =
		navigation.state === 'submitting' && (value === undefined || navigation.formData?.get(name ?? '') === value)
	return (
		<button
			type="submit"
			className={className}
			name={name}
			value={value}
			disabled={disabled}
			aria-disabled={pending || undefined}
		>
			{pending ? m.common.working : children}
		</button>
	)
}

export function Notice({ children, tone = 'info' }: { children: React.ReactNode; tone?: 'info' | 'ok' | 'error' }) {
	return (
		<div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
			{children}
		</div>
	)
}

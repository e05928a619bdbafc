import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { loadCatalogue } from './i18n/index.ts'

// The page's message catalogue must be in hand before React hydrates it: the
// server rendered it in <html lang>'s locale, and the browser downloads only that one.
void loadCatalogue(document.documentElement.lang).then(() =>
	startTransition(() => {
		hydrateRoot(
			document,
			<StrictMode>
				<HydratedRouter />
			</StrictMode>,
		)
	}),
)

import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { cataloguePartsOf, loadCatalogue } from './i18n/index.ts'

// The page's message catalogue must be in hand before React hydrates it: the
// server rendered it in <html lang>'s locale, and the browser downloads only that one (and of it
// the parts the page reads).
void loadCatalogue(document.documentElement.lang, cataloguePartsOf(location.pathname)).then(() =>
	startTransition(() => {
		hydrateRoot(
			document,
			<StrictMode>
				<HydratedRouter />
			</StrictMode>,
		)
	}),
)

import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// The small modules every page with scripts shares (its i18n, notices, due lines, SEO helpers):
// one file instead of seven, so a first visit on a slow link waits for fewer requests (decision 0076).
const SHARED =
	/\/(?:app\/i18n\/(?:index|format|locales)|app\/ui\/(?:feedback|table)|app\/platform\/notices|app\/learning\/(?:due-list|learning)|app\/content\/(?:content-language|seo)|app\/accounts\/verify-reminder|db\/schema\/values)\.tsx?$/

// React and React Router: the runtime every page with scripts loads beside the client entry (React DOM).
const RUNTIME = /\/node_modules\/(?:react|react-router)\//
const chunkOf = (id: string) => (RUNTIME.test(id) ? 'runtime' : SHARED.test(id) ? 'shared' : undefined)

// The SSR build's entry is our own server module, so tenant resolution and the
// database handle are compiled together with the routes (see server/app.ts).
export default defineConfig(({ isSsrBuild }) => ({
	build: {
		rollupOptions: isSsrBuild ? { input: './server/app.ts' } : { output: { manualChunks: chunkOf } },
	},
	plugins: [reactRouter()],
}))

import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

// The SSR build's entry is our own server module, so tenant resolution and the
// database handle are compiled together with the routes (see server/app.ts).
export default defineConfig(({ isSsrBuild }) => ({
	build: {
		rollupOptions: isSsrBuild ? { input: './server/app.ts' } : undefined,
	},
	plugins: [reactRouter()],
}))

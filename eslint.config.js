// ESLint: typescript-eslint's recommended rules, React's hook rules and jsx-a11y.
// Formatting is Prettier's job (npm run lint runs both, and knip for dead code).
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The rooms of app/ from the bottom up (docs/architecture.md, "Rooms"; issue 50): each may import the
 * ones before it, never one after it. i18n (catalogues, Intl formatting) and platform (env, logs, mail,
 * the job queue, rate limits) serve every room; admin is what only administrators reach, and
 * integrations (the REST API, decision 0071), on top, acts through the admin pages' functions.
 */
const LAYERS = [
	'i18n',
	'platform',
	'ui',
	'content',
	'accounts',
	'certificates',
	'learning',
	'reminders',
	'admin',
	'integrations',
]

export default tseslint.config(
	{
		ignores: [
			'build/',
			'.react-router/',
			'.tmp/',
			'node_modules/',
			'drizzle/',
			'public/',
			'openapi/',
			// The Strapi project's installed, generated and built files.
			'cms/strapi/{node_modules,dist,build,.tmp,.strapi,types,public}/',
		],
	},
	js.configs.recommended,
	tseslint.configs.recommended,
	reactHooks.configs.flat.recommended,
	jsxA11y.flatConfigs.recommended,
	{
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		rules: {
			// `_`-prefixed names are deliberately unused (destructuring a field away, an unused argument).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
			],
		},
	},
	// cms/strapi is its own project: its server code TypeScript in Strapi's shape (src/), its configuration
	// and scripts CommonJS JavaScript, its admin panel's code browser JavaScript (src/admin/); all linted
	// here with the same rules. Strapi sets the global `strapi` once it has started.
	{ files: ['cms/strapi/**/*.{js,cjs,ts}'], languageOptions: { globals: { strapi: 'readonly' } } },
	{
		files: ['cms/strapi/{config,scripts}/**/*.{js,cjs}'],
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	// The direction of the layers (docs/architecture.md, "Rooms"): routes call rooms, rooms call the
	// repositories in db/, never back up. db/seed.ts is a script (it hashes the demo passwords), not a
	// repository.
	{
		files: ['db/**/*.ts'],
		ignores: ['db/seed.ts', 'db/**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ regex: '^(#app/|\\.\\./app/)', message: 'db/ is below the rooms: it never imports app/.' }] },
			],
		},
	},
	// The rooms, one layer each (LAYERS, bottom first): a room imports only the rooms below it, and no route
	// module. Relative paths count by depth (a catalogue in app/i18n/catalogues/ reaches its own
	// app/i18n/admin/ by ../admin/, which is no room).
	...LAYERS.flatMap((room, layer) => {
		const above = LAYERS.slice(layer + 1)
		return [
			{ files: [`app/${room}/*.{ts,tsx}`], up: '\\.\\./' },
			{ files: [`app/${room}/*/**/*.{ts,tsx}`], up: '\\.\\./\\.\\./' },
		].map(({ files, up }) => ({
			files,
			rules: {
				'no-restricted-imports': [
					'error',
					{
						patterns: [
							{ regex: '^(#app/routes/|\\.\\./routes/|\\./routes/)', message: 'Rooms never import a route module.' },
							...(above.length
								? [
										{
											regex: `^(#app/|${up})(${above.join('|')})/`,
											message: `${room} is below ${above.join(', ')} (docs/architecture.md, "Rooms"): it imports none of them.`,
										},
									]
								: []),
						],
					},
				],
			},
		}))
	}),
	{
		// The modules at the top of app/ (the request context, the job runner, root, entries) compose the rooms.
		files: ['app/*.{ts,tsx}'],
		ignores: ['app/routes.ts', 'app/root.tsx'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ regex: '^(#app/routes/|\\./routes/)', message: 'Rooms never import a route module.' }] },
			],
		},
	},
	{
		// Route modules reach data through their room's services only (issue 37): no repository of db/,
		// except the enum values a schema lists (db/schema/values.ts) and types.
		files: ['app/routes/**/*.{ts,tsx}', 'app/routes.ts', 'app/root.tsx'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '^(#db/|(\\.\\./)+db/)(?!schema/values\\.ts$)',
							allowTypeImports: true,
							message: 'Routes call their room (app/<room>/*.server.ts), never db/ directly.',
						},
					],
				},
			],
		},
	},
	{
		// Tests, benchmarks and scripts read JSON and pages of any shape; `any` there is honest.
		files: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
	},
)

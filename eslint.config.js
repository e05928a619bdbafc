// ESLint: typescript-eslint's recommended rules, React's hook rules and jsx-a11y.
// Formatting is Prettier's job (npm run lint runs both, and knip for dead code).
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	// cms/strapi is its own project (CommonJS, Strapi's conventions, its own dependencies).
	{ ignores: ['build/', '.react-router/', '.tmp/', 'node_modules/', 'drizzle/', 'public/', 'cms/strapi/'] },
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
	{
		// Tests, benchmarks and scripts read JSON and pages of any shape; `any` there is honest.
		files: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-control-regex': 'off' },
	},
)

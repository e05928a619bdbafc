// Lists the functions of app/, db/ and server/ (tests left out) longer than a number of lines (80
// unless given), longest first, each marked as a JSX component or not (issue 37: no function over
// 80 lines outside JSX components without a reason written beside it).
//   node scripts/long-functions.js [lines]
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import ts from 'typescript'

const limit = Number(process.argv[2] ?? 80)
const files = execFileSync('git', ['ls-files', 'app', 'db', 'server'], { encoding: 'utf8' })
	.split('\n')
	.filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'))

/** The name a function is known by: its own, its variable's, or the call it is handed to. */
function nameOf(node, source) {
	if (node.name) return node.name.getText(source)
	if (ts.isVariableDeclaration(node.parent)) return node.parent.name.getText(source)
	if (ts.isCallExpression(node.parent)) return `(callback of ${node.parent.expression.getText(source).slice(0, 30)})`
	return '(anonymous)'
}

function hasJsx(node) {
	if (ts.isJsxElement(node) || ts.isJsxFragment(node) || ts.isJsxSelfClosingElement(node)) return true
	return ts.forEachChild(node, hasJsx) ?? false
}

const rows = []
for (const file of files) {
	const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind)
	const visit = (node) => {
		if (ts.isFunctionLike(node) && node.body) {
			const line = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1
			const start = line(node.getStart(source))
			const lines = line(node.end) - start + 1
			const name = nameOf(node, source)
			// A component: a function with a capitalised name that renders JSX.
			const component = /^[A-Z]/.test(name) && hasJsx(node.body)
			if (lines > limit) rows.push({ lines, where: `${file}:${start}`, name, component })
		}
		ts.forEachChild(node, visit)
	}
	visit(source)
}
rows.sort((a, b) => b.lines - a.lines)
for (const r of rows) console.log(`${r.lines}\t${r.component ? 'component' : 'function'}\t${r.where}\t${r.name}`)

import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A content directory for the local content service (startCms's `contentDir`): the demo content plus
 * `copies` copies of acme's intro-to-web (copy-1, copy-2, …), for learners in many courses. With
 * `long`, the last copy is named so and is ten times as long (every module ten times, slugs suffixed).
 * The caller removes `dir`.
 */
export function contentWithCopies(copies: number, long?: string) {
	const dir = mkdtempSync(join(tmpdir(), 'lms-content-copies-'))
	cpSync('cms/content', dir, { recursive: true })
	const source = JSON.parse(readFileSync(join(dir, 'acme/courses/intro-to-web.json'), 'utf8'))
	const slugs = Array.from({ length: copies }, (_, i) => (long && i === copies - 1 ? long : `copy-${i + 1}`))
	for (const slug of slugs) {
		const modules =
			slug === long
				? Array.from({ length: 10 }, (_, n) =>
						(source.modules as { slug: string; entries: { slug: string }[] }[]).map((m) => ({
							...m,
							slug: n ? `${m.slug}-${n}` : m.slug,
							entries: m.entries.map((e) => ({ ...e, slug: n ? `${e.slug}-${n}` : e.slug })),
						})),
					).flat()
				: source.modules
		writeFileSync(join(dir, `acme/courses/${slug}.json`), JSON.stringify({ ...source, slug, modules }))
	}
	return { dir, slugs }
}

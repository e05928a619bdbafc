import sharp from 'sharp'
import { describe, expect, it, beforeAll } from 'vitest'
import { strapiAdmin, type StrapiAdmin } from '#tests/support/strapi.ts'

// The media library is one tree for every site: each site's files live in its folder (`acme/`,
// `globex/`) and under it a folder per course. An author sees and writes only their sites' folders
// and files, through every admin route of the upload plugin; the platform's editor sees all.
let png: Buffer

describe('the media library, site by site', () => {
	let acme: StrapiAdmin
	let globex: StrapiAdmin
	let editor: StrapiAdmin
	let acmeFolder: number
	let acmeCourseFolder: number
	let globexFolder: number
	let acmeFile: number
	const stamp = Date.now()

	beforeAll(async () => {
		png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#cc3366' } })
			.png()
			.toBuffer()
		acme = await strapiAdmin('author@acme.test')
		globex = await strapiAdmin('author@globex.test')
		editor = await strapiAdmin('editor@platform.test')
		acmeFolder = await acme.folder('acme', null)
		acmeCourseFolder = await acme.folder(`media-${stamp}`, acmeFolder)
		globexFolder = await globex.folder('globex', null)
		const uploaded = await acme.upload(`acme-${stamp}.png`, png, 'image/png', acmeCourseFolder)
		expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
		acmeFile = uploaded.body[0].id
	})

	const folderNames = (answer: { body: any }) => (answer.body.data as any[]).map((f) => f.name)
	const treeIds = (nodes: any[]): number[] => nodes.flatMap((n) => [n.id, ...treeIds(n.children ?? [])])

	it("lists only the author's own folders, in the list, one by one and in the tree", async () => {
		const listed = await globex.call('GET', '/upload/folders?pageSize=100')
		expect(listed.status).toBe(200)
		expect(folderNames(listed)).toContain('globex')
		expect(folderNames(listed)).not.toContain('acme')
		expect(folderNames(listed)).not.toContain(`media-${stamp}`)
		const filtered = await globex.call('GET', `/upload/folders?filters[parent][id]=${acmeFolder}`)
		expect(filtered.body.data ?? []).toEqual([])
		for (const id of [acmeFolder, acmeCourseFolder])
			expect([403, 404]).toContain((await globex.call('GET', `/upload/folders/${id}`)).status)
		const tree = await globex.call('GET', '/upload/folder-structure')
		expect(tree.status).toBe(200)
		expect(treeIds(tree.body.data)).toContain(globexFolder)
		expect(treeIds(tree.body.data)).not.toContain(acmeFolder)
		expect(treeIds(tree.body.data)).not.toContain(acmeCourseFolder)
		// The editor sees both sites.
		const all = folderNames(await editor.call('GET', '/upload/folders?pageSize=100'))
		expect(all).toEqual(expect.arrayContaining(['acme', 'globex', `media-${stamp}`]))
		expect(treeIds((await editor.call('GET', '/upload/folder-structure')).body.data)).toContain(acmeCourseFolder)
	})

	it("lists only the author's own files, and none by id", async () => {
		const files = await globex.call('GET', '/upload/files?pageSize=100')
		expect(files.status).toBe(200)
		expect((files.body.results as any[]).map((f) => f.id)).not.toContain(acmeFile)
		const inAcme = await globex.call('GET', `/upload/files?folder=${acmeCourseFolder}`)
		expect((inAcme.body.results ?? []).map((f: any) => f.id)).not.toContain(acmeFile)
		expect([403, 404]).toContain((await globex.call('GET', `/upload/files/${acmeFile}`)).status)
		expect((await acme.call('GET', `/upload/files/${acmeFile}`)).status).toBe(200)
	})

	it("refuses every write into or on another site's folders and files", async () => {
		// Upload into Acme's folder, or to the root (which no site owns).
		expect((await globex.upload(`planted-${stamp}.png`, png, 'image/png', acmeCourseFolder)).status).toBe(403)
		const rootForm = new FormData()
		rootForm.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), `root-${stamp}.png`)
		rootForm.append('fileInfo', JSON.stringify({ name: `root-${stamp}.png` }))
		expect((await globex.call('POST', '/upload', rootForm)).status).toBe(403)
		// Replace Acme's file, or change its information.
		const replace = new FormData()
		replace.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'replaced.png')
		expect([403, 404]).toContain((await globex.call('POST', `/upload?id=${acmeFile}`, replace)).status)
		const info = new FormData()
		info.append('fileInfo', JSON.stringify({ name: 'taken.png', alternativeText: 'taken' }))
		expect([403, 404]).toContain((await globex.call('POST', `/upload?id=${acmeFile}`, info)).status)
		expect([403, 404]).toContain(
			(await globex.call('PUT', `/upload/files/${acmeFile}`, { fileInfo: { name: 'taken.png' } })).status,
		)
		// Folders: made under Acme's or at the root, renamed, moved, deleted.
		expect(
			(await globex.call('POST', '/upload/folders', { name: `in-acme-${stamp}`, parent: acmeFolder })).status,
		).toBe(403)
		expect((await globex.call('POST', '/upload/folders', { name: `root-${stamp}`, parent: null })).status).toBe(403)
		expect([403, 404]).toContain(
			(await globex.call('PUT', `/upload/folders/${acmeCourseFolder}`, { name: 'taken', parent: acmeFolder })).status,
		)
		const ownFolder = await globex.folder(`own-${stamp}`, globexFolder)
		expect(
			(
				await globex.call('POST', '/upload/actions/bulk-move', {
					destinationFolderId: acmeFolder,
					folderIds: [ownFolder],
				})
			).status,
		).toBe(403)
		expect(
			(
				await globex.call('POST', '/upload/actions/bulk-move', {
					destinationFolderId: globexFolder,
					fileIds: [acmeFile],
				})
			).status,
		).toBe(403)
		expect((await globex.call('POST', '/upload/actions/bulk-delete', { fileIds: [acmeFile] })).status).toBe(403)
		expect((await globex.call('POST', '/upload/actions/bulk-delete', { folderIds: [acmeCourseFolder] })).status).toBe(
			403,
		)
		expect(
			(
				await globex.call('POST', '/upload/actions/bulk-update', {
					updates: [{ id: acmeFile, fileInfo: { name: 'x' } }],
				})
			).status,
		).toBe(403)
		expect((await globex.call('DELETE', `/upload/files/${acmeFile}`)).status).toBeGreaterThanOrEqual(403)
		// A site's own folder is not renamed or moved by its authors: its name is the site's key.
		expect(
			(await globex.call('PUT', `/upload/folders/${globexFolder}`, { name: 'renamed', parent: null })).status,
		).toBe(403)

		// Nothing of Acme's changed, and nothing landed in its folders.
		const still = await acme.call('GET', `/upload/files/${acmeFile}`)
		expect(still.status).toBe(200)
		expect(still.body.name).toBe(`acme-${stamp}.png`)
		const mine = await acme.call('GET', `/upload/files?pageSize=100&filters[name][$contains]=${stamp}`)
		expect((mine.body.results as any[]).map((f) => f.name).sort()).toEqual([`acme-${stamp}.png`])
		expect(folderNames(await acme.call('GET', '/upload/folders?pageSize=100'))).not.toContain(`in-acme-${stamp}`)

		// What the author may do in their own site's folders still works.
		expect((await globex.upload(`own-${stamp}.png`, png, 'image/png', ownFolder)).status).toBe(201)
		expect((await globex.call('POST', '/upload/actions/bulk-delete', { folderIds: [ownFolder] })).status).toBe(200)
	})
})

import { describe, expect, it } from 'vitest'
import { bytesMatch, claimedType, sanitizeFileName } from './hand-in.server.ts'

const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
)
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

describe('sanitizeFileName', () => {
	it('keeps the last path segment, without control, bidi or header-breaking characters', () => {
		expect(sanitizeFileName('../../etc/passwd.txt')).toBe('passwd.txt')
		expect(sanitizeFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf')
		expect(sanitizeFileName('a\u202Eb\u0000c\r\nd.txt')).toBe('abcd.txt')
		expect(sanitizeFileName('x"; filename=evil.html;.txt')).toBe('x__ filename=evil.html_.txt')
		expect(sanitizeFileName('  ..hidden..  ')).toBe('hidden')
		expect(sanitizeFileName('..')).toBe('file')
		expect(sanitizeFileName('报告 最终.txt')).toBe('报告 最终.txt')
	})

	it('shortens a long name to 120 characters, keeping its extension', () => {
		const name = sanitizeFileName(`${'a'.repeat(300)}.pdf`)
		expect(name).toHaveLength(120)
		expect(name.endsWith('.pdf')).toBe(true)
	})
})

describe('claimedType', () => {
	it('reads the lower-cased extension, with jpeg as jpg, and nothing else', () => {
		expect(claimedType('a.PDF')).toBe('pdf')
		expect(claimedType('photo.jpeg')).toBe('jpg')
		expect(claimedType('page.html')).toBeNull()
		expect(claimedType('noext')).toBeNull()
		expect(claimedType('a.txt.exe')).toBeNull()
	})
})

describe('bytesMatch', () => {
	it('accepts bytes that are what the extension says', async () => {
		expect(await bytesMatch('png', PNG)).toBe(true)
		expect(await bytesMatch('pdf', PDF)).toBe(true)
		expect(await bytesMatch('txt', Buffer.from('plain text, ünïcödé'))).toBe(true)
	})

	it('refuses a type behind another extension, binary text and broken UTF-8', async () => {
		expect(await bytesMatch('pdf', Buffer.from('<html><script>alert(1)</script>'))).toBe(false)
		expect(await bytesMatch('txt', PNG)).toBe(false)
		expect(await bytesMatch('png', PDF)).toBe(false)
		expect(await bytesMatch('txt', Buffer.from([0x61, 0x00, 0x62]))).toBe(false)
		expect(await bytesMatch('md', Buffer.from([0xc3, 0x28]))).toBe(false)
	})

	it('accepts a text head cut inside a character', async () => {
		expect(await bytesMatch('txt', Buffer.from('é').subarray(0, 1))).toBe(true)
	})
})

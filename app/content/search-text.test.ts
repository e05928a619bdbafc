import { describe, expect, it } from 'vitest'
import { fold, queryTerms } from './search-text.ts'
import { createCatalogueIndex } from './catalogue-index.ts'
import { MAX_QUERY_LENGTH, readCatalogueQuery } from './catalogue-search.server.ts'

const matches = (query: string, text: string, locale: Parameters<typeof fold>[1] = 'en') => {
	const index = createCatalogueIndex()
	index.put('doc', {}, { title: [[text, locale]] })
	return index.search(query, locale, new Set(['doc'])).has('doc')
}

describe('catalogue search text', () => {
	it('folds case and accents in the locale', () => {
		expect(fold('Résumé', 'fr')).toBe('resume')
		expect(fold('CAFÉ', 'fr')).toBe('cafe')
		expect(fold('Straße', 'de')).toBe('strasse')
		expect(fold('İstanbul', 'en')).toBe('istanbul')
	})

	it('finds words whatever their accents and case', () => {
		expect(matches('café', 'A cafe on every corner')).toBe(true)
		expect(matches('cafe', 'Le Café de Flore', 'fr')).toBe(true)
		expect(matches('resume', 'Write a Résumé')).toBe(true)
		expect(matches('PROGRAMACION', 'Introducción a la programación', 'es')).toBe(true)
		expect(matches('cafe', 'Tea and biscuits')).toBe(false)
	})

	it('stems each language with its Snowball stemmer', () => {
		expect(matches('running', 'She runs every morning')).toBe(true)
		expect(matches('courses', 'A course on layout')).toBe(true)
		expect(matches('cuisines', 'La cuisine française', 'fr')).toBe(true)
		expect(matches('programaciones', 'Curso de programación', 'es')).toBe(true)
		expect(matches('Häuser', 'Ein Haus am See', 'de')).toBe(true)
		expect(matches('programação', 'Curso de programas', 'pt')).toBe(true)
	})

	it('matches the start of a word of three letters or more', () => {
		expect(matches('prog', 'Programming basics')).toBe(true)
		expect(matches('pr', 'Programming basics')).toBe(false)
	})

	it('forgives one slipped letter in a word of five letters or more', () => {
		expect(matches('programing', 'Programming basics')).toBe(true)
		expect(matches('espreso', 'Espresso and milk')).toBe(true)
		expect(matches('cafe', 'A safe harbour')).toBe(false)
		expect(matches('programing', 'Pottery class')).toBe(false)
	})

	it('reads Chinese as bigrams and single characters', () => {
		expect(matches('网页', '网页开发入门', 'zh')).toBe(true)
		expect(matches('开发', '网页开发入门', 'zh')).toBe(true)
		expect(matches('网', '网页开发入门', 'zh')).toBe(true)
		expect(matches('网发', '网页开发入门', 'zh')).toBe(false)
		expect(matches('烹饪', '网页开发入门', 'zh')).toBe(false)
	})

	it('reads a hostile query as a plain one', () => {
		const url = (search: string) => new URL(`http://x/learn${search}`)
		expect(readCatalogueQuery(url('?q=a&q=b')).q).toBe('a')
		expect(readCatalogueQuery(url('?q=caf%00%C3%A9%0A%1B')).q).toBe('caf é')
		expect(readCatalogueQuery(url(`?q=${'x'.repeat(5000)}`)).q).toHaveLength(MAX_QUERY_LENGTH)
		expect(readCatalogueQuery(url('?category=<b>&tag=css&page=-1'))).toEqual({
			q: '',
			category: null,
			tag: 'css',
			page: 1,
		})
		expect(readCatalogueQuery(url(`?q=${'zebra '.repeat(100)}`)).q).toBe(Array(33).fill('zebra').join(' '))
		expect(readCatalogueQuery(url('?page=99999')).page).toBe(1)
		expect(queryTerms('a b c d e f g h i j k l m n o p', 'en')).toHaveLength(12)
	})
})

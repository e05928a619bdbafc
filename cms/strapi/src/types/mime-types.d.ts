// mime-types (a dependency of Strapi's upload plugin) ships no types: the one function src/utils/upload-types.ts uses.
declare module 'mime-types' {
	export function lookup(filenameOrExt: string): string | false
}

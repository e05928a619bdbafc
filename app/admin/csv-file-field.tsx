import type { FieldMetadata } from '@conform-to/react'
import { z } from 'zod'
import { useI18n } from '#app/i18n/index.ts'

/** The largest CSV file a list page reads. The server entry refuses bodies over 1 MiB first. */
const MAX_FILE = 512 * 1024
/** The invite page's file (up to 10,000 rows, decision 0059): what the 1 MiB body leaves beside the form's framing. */
export const INVITE_CSV_BYTES = 1_000_000
// Spreadsheets and systems label a CSV file in several ways (Windows says Excel's type).
const CSV_TYPES = [
	'text/csv',
	'text/plain',
	'text/tab-separated-values',
	'application/csv',
	'application/vnd.ms-excel',
	'application/octet-stream',
	'',
]

/** The upload's schema; its messages under `<errors>.fileRequired`, `.fileTooLarge`, `.notCsv`. */
export function csvFileField(errors: string, maxBytes = MAX_FILE) {
	return z
		.file({ error: `${errors}.fileRequired` })
		.max(maxBytes, `${errors}.fileTooLarge`)
		.refine(
			(f) => CSV_TYPES.includes(f.type.split(';')[0].trim().toLowerCase()) || /\.(csv|tsv|txt)$/i.test(f.name),
			`${errors}.notCsv`,
		)
}

/**
 * A CSV upload with its hint and errors tied by aria-describedby (the enroll and invite pages). An
 * error naming a row of the file (`…notCsvAt`) is shown with that row.
 */
export function CsvFileField({
	meta,
	label,
	hint,
	row,
}: {
	meta: FieldMetadata<string>
	label: string
	hint: string
	/** The file's row where reading stopped, when the action named one. */
	row?: number | null
}) {
	const t = useI18n()
	const errorId = meta.errors?.length ? meta.errorId : undefined
	const message = (key: string) =>
		key.endsWith('.notCsvAt') ? t.format(t.text(key), { row: row ? t.number(row) : '?' }) : t.text(key)
	return (
		<div className="field">
			<label htmlFor={meta.id}>{label}</label>
			<p id={`${meta.id}-hint`} className="hint">
				{hint}
			</p>
			<input
				id={meta.id}
				name={meta.name}
				type="file"
				accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
				aria-invalid={errorId ? true : undefined}
				aria-describedby={[`${meta.id}-hint`, errorId].filter(Boolean).join(' ')}
			/>
			{errorId ? (
				<p id={errorId} className="field-error">
					{meta.errors!.map(message).join(' ')}
				</p>
			) : null}
		</div>
	)
}

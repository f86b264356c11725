// CSV as the exports write it (docs/decisions/17-the-organisers-office.md): RFC 4180 (CRLF between records, a
// field holding a comma, quote, CR or LF in double quotes, quotes doubled) by csv-stringify,
// UTF-8 with a byte order mark, and no cell a spreadsheet would run as a formula.
import { Readable, pipeline } from 'node:stream';

/**
 * The characters a spreadsheet may read as the start of a formula or a command (OWASP's
 * CSV injection rule): `=`, `+`, `-`, `@`, tab and carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet shows as the text it is: one beginning with a formula character gets
 * a leading `'`, which Excel, LibreOffice and Google Sheets take as "this is text". The
 * value read back is the original with that one quote in front.
 */
export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

export type CellValue = string | number | boolean | Date | null | undefined;

const IST_OFFSET_MS = 330 * 60_000;

/** An instant as India Standard Time with the offset written out: `2026-12-12T10:00:00+05:30`. */
export function istTimestamp(instant: Date): string {
  return `${new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19)}+05:30`;
}

/** Whole paise as rupees with two decimals (`99900` → `999.00`), exact for any safe integer. */
export function rupeesText(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * One value as the text of its cell: nothing for null, `yes`/`no` for a boolean, an
 * instant in India time, a number as JavaScript writes it; then neutralised.
 */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value instanceof Date) return istTimestamp(value);
  return neutralise(typeof value === 'number' ? String(value) : value);
}

export interface Column<T> {
  header: string;
  value: (row: T) => CellValue;
}

/** A record's cells in column order. */
export function recordOf<T>(columns: readonly Column<T>[], row: T): string[] {
  return columns.map((c) => cellText(c.value(row)));
}

/**
 * The CSV of `rows` as a byte stream: the BOM and the header row, then one record per row.
 * Rows are pulled from the source only as fast as the reader takes the bytes (the
 * stringifier's buffer is the only queue), so memory stays flat however many rows there are.
 * The first row is read before the stream is handed back, so a source that fails at once (a
 * query the database refuses, such as a filter with a NUL byte) fails this call and is
 * answered as a JSON error, not as a download cut short. A later failure of the source ends
 * the stream with that error.
 */
export async function csvStream<T>(columns: readonly Column<T>[], rows: AsyncIterable<T>): Promise<Readable> {
  const source = rows[Symbol.asyncIterator]();
  const first = await source.next();
  // csv-stringify loads with the first export, not at start: most processes never write one.
  const { stringify } = await import('csv-stringify');
  const out = stringify({
    bom: true,
    header: true,
    columns: columns.map((c) => neutralise(c.header)),
    record_delimiter: 'windows',
  });
  async function* records() {
    for (let next = first; !next.done; next = await source.next()) yield recordOf(columns, next.value);
  }
  pipeline(Readable.from(records()), out, () => {
    // The error, if any, reaches the reader through `out`; nothing else to do.
  });
  return out;
}

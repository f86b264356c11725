// Reading a bank statement export (docs/decisions/24-payment-outside-the-gateway.md): CSV rows
// through csv-parse, the header row found by the mapping's column names (exports open with rows
// naming the account and the period), and each line's date, credited amount and narration.
// Indian banks write amounts as "1,234.50", "₹1,23,456.00", "500.00 Cr", or in separate Debit and
// Credit columns, and dates day first ("02/12/2026", "02-Dec-2026", "02 Dec 26"). Pure: no I/O.
import { parse } from 'csv-parse';
import { appError, badRequest } from '../../lib/errors.js';
import type { StatementMappingDoc } from './statements.tables.js';

export const MAX_STATEMENT_LINES = 5000;
/** How far down the header row may be (below the account name, address and period). */
const HEADER_SEARCH_ROWS = 30;

export interface CsvRow {
  /** The line of the file the row starts on (1-based). */
  line: number;
  cells: string[];
}

export interface StatementLine {
  line: number;
  /** The day, YYYY-MM-DD; null when unreadable. */
  date: string | null;
  /** Paise credited; 0 for a debit; null when the amount is unreadable. */
  creditPaise: number | null;
  debit: boolean;
  narration: string;
}

/** How much of the text is parsed between turns of the event loop (csv-parse reads each write at once). */
const CHUNK = 16 * 1024;
/** A bank statement's row is a few hundred characters; a longer one is not a statement. */
const MAX_ROW_CHARS = 8192;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The CSV's rows; 400 `invalid_statement` when it is not CSV, 413 `statement_too_large` past the
 * limit. Fed to csv-parse a chunk at a time, so a large statement never holds the event loop.
 */
export async function readRows(csv: string): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  let failure: Error | undefined;
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_ROW_CHARS,
    to: MAX_STATEMENT_LINES + HEADER_SEARCH_ROWS + 1,
  });
  parser.on('readable', () => {
    for (let r = parser.read(); r !== null; r = parser.read()) {
      const { record, info } = r as { record: string[]; info: { lines: number } };
      if (record.some((c) => c !== '')) rows.push({ line: info.lines, cells: record });
    }
  });
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (err) => {
      failure = err;
      resolve();
    });
  });
  for (let i = 0; i < csv.length && failure === undefined; i += CHUNK) {
    parser.write(csv.slice(i, i + CHUNK));
    await turn();
  }
  if (failure === undefined) parser.end();
  await ended;
  if (failure) throw badRequest('invalid_statement', `the statement is not valid CSV: ${failure.message}`);
  if (rows.length === 0) throw badRequest('invalid_statement', 'the statement is empty');
  if (rows.length > MAX_STATEMENT_LINES + HEADER_SEARCH_ROWS)
    throw appError('statement_too_large', undefined, { maxLines: MAX_STATEMENT_LINES });
  return rows;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const mappedNames = (m: StatementMappingDoc) =>
  [m.date, m.narration, m.amount, m.credit, m.debit].filter((c): c is string => c !== undefined);

/** The index of the header row: the first row holding every column the mapping names. */
export function findHeader(rows: readonly CsvRow[], mapping: StatementMappingDoc): number {
  const wanted = mappedNames(mapping).map(norm);
  const top = rows.slice(0, HEADER_SEARCH_ROWS);
  const i = top.findIndex((r) => wanted.every((w) => r.cells.some((c) => norm(c) === w)));
  if (i >= 0) return i;
  // Name what is missing from the row closest to a header, so the person can correct the mapping.
  let best = top[0]!;
  for (const r of top)
    if (
      wanted.filter((w) => r.cells.some((c) => norm(c) === w)).length >
      wanted.filter((w) => best.cells.some((c) => norm(c) === w)).length
    )
      best = r;
  const missing = mappedNames(mapping).filter((n) => !best.cells.some((c) => norm(c) === norm(n)));
  throw badRequest(
    'statement_column_missing',
    `the statement has no column ${missing.map((m) => `"${m}"`).join(', ')}`,
    {
      missing,
      columns: best.cells,
    },
  );
}

const GUESSES: [keyof StatementMappingDoc, RegExp][] = [
  ['date', /^(txn |transaction |tran |value )?date$|^date$/],
  ['narration', /narration|description|particulars|remarks|details/],
  ['credit', /^(credit|deposit)( amount| amt\.?)?( \(?(inr|₹|rs\.?)\)?)?$|^cr( amount)?$|deposits?/],
  ['debit', /^(debit|withdrawal)s?( amount| amt\.?)?( \(?(inr|₹|rs\.?)\)?)?$|^dr( amount)?$|withdrawals?/],
  ['amount', /^(txn |transaction )?amount( \(?(inr|₹|rs\.?)\)?)?$/],
];

/** A mapping read from a header row's names, when one holds a date, a narration and an amount. */
export function guessMapping(rows: readonly CsvRow[]): StatementMappingDoc | undefined {
  for (const r of rows.slice(0, HEADER_SEARCH_ROWS)) {
    const found: Partial<Record<keyof StatementMappingDoc, string>> = {};
    for (const [field, re] of GUESSES) {
      const cell = r.cells.find((c) => re.test(norm(c)) && !Object.values(found).includes(c));
      if (cell !== undefined) found[field] = cell;
    }
    if (found.date && found.narration && (found.credit || found.amount))
      return found.credit
        ? { date: found.date, narration: found.narration, credit: found.credit, debit: found.debit }
        : { date: found.date, narration: found.narration, amount: found.amount };
  }
  return undefined;
}

/** Paise of a written amount, with its sign (negative: money out); null when it is not an amount. */
export function parseAmount(text: string): number | null {
  let t = text.replace(/[\s,]/g, '').replace(/^(₹|rs\.?|inr)/i, '');
  let sign = 1;
  const mark = /(cr|dr)\.?$/i.exec(t);
  if (mark) {
    sign = mark[1]!.toLowerCase() === 'dr' ? -1 : 1;
    t = t.slice(0, mark.index);
  }
  if (/^\(.*\)$/.test(t)) {
    sign = -sign;
    t = t.slice(1, -1);
  }
  if (t.startsWith('-')) {
    sign = -sign;
    t = t.slice(1);
  } else if (t.startsWith('+')) t = t.slice(1);
  t = t.replace(/^(₹|rs\.?|inr)/i, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  const paise = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(paise) ? sign * paise : null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The day of a written date, day first as Indian banks write it (or ISO); null when unreadable. */
export function parseDate(text: string): string | null {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  let r = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(t);
  if (r) [y, m, d] = [Number(r[1]), Number(r[2]), Number(r[3])];
  else if ((r = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?: .*)?$/.exec(t)))
    [d, m, y] = [Number(r[1]), Number(r[2]), Number(r[3])];
  else if ((r = /^(\d{1,2})[ /-]([a-z]{3})[a-z]*[ /-](\d{2}|\d{4})(?: .*)?$/i.exec(t))) {
    [d, m, y] = [Number(r[1]), MONTHS.indexOf(r[2]!.toLowerCase()) + 1, Number(r[3])];
  } else return null;
  if (y < 100) y += 2000;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return null;
  return date.toISOString().slice(0, 10);
}

type Money = Pick<StatementLine, 'creditPaise' | 'debit'>;
const UNREADABLE: Money = { creditPaise: null, debit: false };

/** One signed amount column ("-500.00", "500.00 Dr" are debits). */
function fromAmount(text: string): Money {
  const a = parseAmount(text);
  if (a === null) return UNREADABLE;
  return a < 0 ? { creditPaise: 0, debit: true } : { creditPaise: a, debit: false };
}

/** Credit and Debit columns: the one with a non-zero amount says which (the other is blank or 0.00). */
function fromColumns(credit: string, debit: string): Money {
  const c = credit === '' ? 0 : parseAmount(credit);
  const d = debit === '' ? 0 : parseAmount(debit);
  if (c === null || d === null || (c !== 0 && d !== 0)) return UNREADABLE;
  if (c !== 0) return c < 0 ? { creditPaise: 0, debit: true } : { creditPaise: c, debit: false };
  if (d !== 0) return { creditPaise: 0, debit: true };
  return UNREADABLE;
}

/** Each row below the header as a statement line, read through the mapping (a turn of the event loop every 500). */
export async function statementLines(
  rows: readonly CsvRow[],
  mapping: StatementMappingDoc,
): Promise<StatementLine[]> {
  const h = findHeader(rows, mapping);
  const header = rows[h]!.cells.map(norm);
  const col = (name: string | undefined) => (name === undefined ? -1 : header.indexOf(norm(name)));
  const [iDate, iNarr, iAmount, iCredit, iDebit] = [
    col(mapping.date),
    col(mapping.narration),
    col(mapping.amount),
    col(mapping.credit),
    col(mapping.debit),
  ];
  const body = rows.slice(h + 1);
  if (body.length > MAX_STATEMENT_LINES)
    throw appError('statement_too_large', undefined, { maxLines: MAX_STATEMENT_LINES });
  const lines: StatementLine[] = [];
  for (const [i, r] of body.entries()) {
    if (i % 500 === 499) await turn();
    const cell = (c: number) => (c < 0 ? '' : (r.cells[c] ?? ''));
    const money =
      iAmount >= 0 ? fromAmount(cell(iAmount)) : fromColumns(cell(iCredit), iDebit < 0 ? '' : cell(iDebit));
    lines.push({ line: r.line, date: parseDate(cell(iDate)), ...money, narration: cell(iNarr) });
  }
  return lines;
}

/**
 * The header row to offer for mapping: the one `mapping` finds, else the widest of the top
 * rows (the preamble of an export has one or two cells a row).
 */
export function headerCells(rows: readonly CsvRow[], mapping: StatementMappingDoc | undefined): string[] {
  if (mapping) {
    try {
      return rows[findHeader(rows, mapping)]!.cells;
    } catch {
      // The mapping does not fit this export: offer the widest row instead.
    }
  }
  const top = rows.slice(0, HEADER_SEARCH_ROWS);
  const filled = (r: CsvRow) => r.cells.filter((c) => c !== '').length;
  return top.reduce((best, r) => (filled(r) > filled(best) ? r : best), top[0]!).cells;
}

// A bank statement upload (docs/decisions/24-payment-outside-the-gateway.md): read the CSV through
// the column mapping (given, else the account's remembered one, else read from the header), plan
// which lines pay which bookings (match-statement.ts), and mark each exact match paid through the
// registrations module's mark-paid — one transaction per booking, every effect of a paid
// confirmation, the audit entry naming the key or the person. Marking is idempotent, so a
// statement uploaded again, or twice at once, marks each booking once; the rest is listed.
import type { KeyPrincipal } from '../../http/auth.js';
import { AppError } from '../../lib/errors.js';
import { bookingsByReference, markPaid } from '../registrations/mark-paid.service.js';
import type { RegisterDeps } from '../registrations/register-deps.js';
import { type Listed, lineReferences, planStatement, type ToMark } from './match-statement.js';
import {
  type CsvRow,
  findHeader,
  guessMapping,
  headerCells,
  readRows,
  statementLines,
} from './parse-statement.js';
import * as repo from './statements.repo.js';
import type { StatementMappingDoc } from './statements.tables.js';
import { badRequest } from '../../lib/errors.js';

export interface StatementInput {
  csv: string;
  mapping?: StatementMappingDoc | undefined;
}

export interface MarkedLine {
  line: number;
  reference: string;
  registrationId: string;
  creditPaise: number;
}

export interface StatementSummary {
  lines: number;
  debits: number;
  marked: MarkedLine[];
  listed: Listed[];
  mapping: StatementMappingDoc;
  mappingSource: 'given' | 'remembered' | 'recognised';
}

/** The mapping to read with, and where it came from. */
async function chooseMapping(
  deps: Pick<RegisterDeps, 'db'>,
  accountId: string,
  rows: readonly CsvRow[],
  given: StatementMappingDoc | undefined,
): Promise<{ mapping: StatementMappingDoc; source: StatementSummary['mappingSource'] }> {
  if (given) {
    if ((given.amount === undefined) === (given.credit === undefined))
      throw badRequest('invalid_request', 'mapping names either amount or credit (with an optional debit)', {
        field: 'mapping',
      });
    return { mapping: given, source: 'given' };
  }
  const remembered = await repo.findMapping(deps.db, accountId);
  if (remembered) return { mapping: remembered, source: 'remembered' };
  const guessed = guessMapping(rows);
  if (guessed) return { mapping: guessed, source: 'recognised' };
  throw badRequest('statement_mapping_required', undefined, { columns: rows[0]!.cells });
}

/** Reads, plans and marks; answers what was marked and what a person should look at. */
export async function uploadStatement(
  deps: RegisterDeps,
  p: KeyPrincipal,
  input: StatementInput,
): Promise<StatementSummary> {
  const rows = await readRows(input.csv);
  const { mapping, source } = await chooseMapping(deps, p.userId, rows, input.mapping);
  const lines = await statementLines(rows, mapping);
  // The columns were found: this export's mapping is the account's from now on.
  if (source !== 'remembered') await repo.saveMapping(deps.db, p.userId, mapping, deps.clock.now());
  const refs = [...new Set([...lineReferences(lines).values()].flat())];
  const bookings = await bookingsByReference(deps, p.userId, p.mode, refs);
  const plan = planStatement(lines, bookings);
  const eventOf = new Map(bookings.map((b) => [b.id, b.eventId]));
  const summary: StatementSummary = {
    lines: lines.length,
    debits: plan.debits,
    marked: [],
    listed: plan.listed,
    mapping,
    mappingSource: source,
  };
  // One booking at a time, in one order, each in its own transaction (mark-paid's).
  const ordered = [...plan.toMark].sort((a, b) => a.registrationId.localeCompare(b.registrationId));
  for (const m of ordered) await markLine(deps, p, eventOf.get(m.registrationId)!, m, summary);
  summary.listed.sort((a, b) => a.line - b.line);
  summary.marked.sort((a, b) => a.line - b.line);
  return summary;
}

/** Marks one line's booking paid; a booking another mark (or the lapse) reached first is listed. */
async function markLine(
  deps: RegisterDeps,
  p: KeyPrincipal,
  eventId: string,
  m: ToMark,
  summary: StatementSummary,
): Promise<void> {
  const about = {
    line: m.line,
    reference: m.reference,
    registrationId: m.registrationId,
    creditPaise: m.creditPaise,
  };
  try {
    const { moved } = await markPaid(deps, p, eventId, m.registrationId, {
      method: 'bank_transfer',
      // The narration carries the bank's own reference (UTR) beside ours.
      reference: m.narration.slice(0, 100),
      amountPaid: m.creditPaise / 100,
      // The statement says the day only: the start of that day, India time.
      paidAt: `${m.date}T00:00:00+05:30`,
    });
    if (moved) summary.marked.push(about);
    else summary.listed.push({ ...about, reason: 'already_paid', amountDuePaise: m.creditPaise });
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 409) throw err;
    summary.listed.push({
      ...about,
      reason: err.code === 'amount_mismatch' ? 'amount_differs' : 'not_pending',
    });
  }
}

/** The dashboard's mapping step: the statement's columns and the mapping to offer first. */
export async function statementColumns(
  deps: Pick<RegisterDeps, 'db'>,
  p: KeyPrincipal,
  csv: string,
): Promise<{
  columns: string[];
  mapping: StatementMappingDoc | undefined;
  source: 'remembered' | 'recognised' | null;
}> {
  const rows = await readRows(csv);
  const remembered = await repo.findMapping(deps.db, p.userId);
  const fits = remembered !== undefined && fitsRows(rows, remembered);
  const guessed = fits ? undefined : guessMapping(rows);
  const mapping = fits ? remembered : guessed;
  const columns = headerCells(rows, mapping).filter((c) => c !== '');
  return { columns, mapping, source: fits ? 'remembered' : guessed ? 'recognised' : null };
}

function fitsRows(rows: readonly CsvRow[], m: StatementMappingDoc): boolean {
  try {
    findHeader(rows, m);
    return true;
  } catch {
    return false;
  }
}

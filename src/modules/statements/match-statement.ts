// Which statement lines mark which bookings paid (docs/decisions/24-payment-outside-the-gateway.md):
// a credit whose narration names exactly one booking reference, of a booking awaiting payment
// outside the gateway, for exactly its amount due, and named by no other line of the statement.
// Everything else is listed with a reason for a person to decide; nothing is guessed. Pure.
import type { StatementLine } from './parse-statement.js';

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** TKT-XXXXXX as written on the booking, or with a space or no separator, standing alone. */
const STRICT = new RegExp(`(?<![A-Z0-9])TKT[ -]?([${ALPHABET}]{6})(?![A-Z0-9])`, 'g');
/**
 * Spaces and hyphens anywhere in it ("TKT 7F3 K9M"); read only when the strict form finds none, and
 * only when the sixth character ends a group: "TKT 7F3K9 MUMBAI" has no one reading, so none.
 */
const LOOSE = new RegExp(`(?<![A-Z0-9])T[ -]*K[ -]*T((?:[ -]*[${ALPHABET}]){6})(?![A-Z0-9])`, 'g');

/** The distinct references a narration names, as TKT-XXXXXX. */
export function referencesIn(narration: string): string[] {
  const text = narration.toUpperCase();
  let found = [...text.matchAll(STRICT)].map((m) => m[1]!);
  if (found.length === 0) found = [...text.matchAll(LOOSE)].map((m) => m[1]!.replace(/[ -]/g, ''));
  return [...new Set(found.map((r) => `TKT-${r}`))];
}

export type ListReason =
  | 'no_reference'
  | 'several_references'
  | 'unknown_reference'
  | 'duplicate_reference'
  | 'amount_differs'
  | 'not_pending'
  | 'already_paid'
  | 'unreadable_line';

export interface Booking {
  id: string;
  reference: string;
  awaiting: boolean;
  markedPaid: boolean;
  amountPaise: number;
}

export interface Listed {
  line: number;
  reason: ListReason;
  reference?: string;
  /** Paise credited by the line. */
  creditPaise?: number;
  registrationId?: string;
  amountDuePaise?: number;
}

export interface ToMark {
  line: number;
  reference: string;
  registrationId: string;
  creditPaise: number;
  /** The line's day (YYYY-MM-DD). */
  date: string;
  narration: string;
}

export interface Plan {
  toMark: ToMark[];
  listed: Listed[];
  /** Lines paying money out: not payments for bookings. */
  debits: number;
}

/** The reference of every credit line naming exactly one. */
export function lineReferences(lines: readonly StatementLine[]): Map<number, string[]> {
  return new Map(lines.map((l) => [l.line, referencesIn(l.narration)]));
}

/** Decides every line: to mark, listed with a reason, or a debit. */
export function planStatement(lines: readonly StatementLine[], bookings: readonly Booking[]): Plan {
  const byRef = new Map(bookings.map((b) => [b.reference, b]));
  const refs = lineReferences(lines);
  const count = new Map<string, number>();
  for (const l of lines)
    if (!l.debit && l.creditPaise !== null && l.date !== null && refs.get(l.line)!.length === 1)
      count.set(refs.get(l.line)![0]!, (count.get(refs.get(l.line)![0]!) ?? 0) + 1);
  const plan: Plan = { toMark: [], listed: [], debits: 0 };
  for (const l of lines) {
    if (l.debit) {
      plan.debits++;
      continue;
    }
    const found = refs.get(l.line)!;
    const list = (reason: ListReason, more: Partial<Listed> = {}) =>
      plan.listed.push({
        line: l.line,
        reason,
        ...(l.creditPaise === null ? {} : { creditPaise: l.creditPaise }),
        ...more,
      });
    if (l.creditPaise === null || l.date === null)
      list('unreadable_line', found.length === 1 ? { reference: found[0]! } : {});
    else if (found.length === 0) list('no_reference');
    else if (found.length > 1) list('several_references', { reference: found.join(' ') });
    else decideOne(plan, l, found[0]!, byRef.get(found[0]!), count.get(found[0]!)!, list);
  }
  return plan;
}

function decideOne(
  plan: Plan,
  l: StatementLine,
  reference: string,
  b: Booking | undefined,
  lines: number,
  list: (reason: ListReason, more?: Partial<Listed>) => void,
) {
  if (!b) return list('unknown_reference', { reference });
  const about = { reference, registrationId: b.id, amountDuePaise: b.amountPaise };
  // A booking marked already is said to be, whichever line paid it: a second line is money twice.
  if (b.markedPaid) return list('already_paid', about);
  if (!b.awaiting) return list('not_pending', about);
  if (lines > 1) return list('duplicate_reference', about);
  if (l.creditPaise !== b.amountPaise) return list('amount_differs', about);
  plan.toMark.push({
    line: l.line,
    reference,
    registrationId: b.id,
    creditPaise: l.creditPaise,
    date: l.date!,
    narration: l.narration,
  });
}

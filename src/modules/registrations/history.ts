// A booking's history (docs/decisions/28-a-persons-day.md): what happened to it, in order, said in
// words, drawn from the audit entries the lifecycle writes with each change
// (lifecycle/change-booking.ts): booked, paid, approved, refunds in part with their reason,
// a cancellation with what was refunded and kept, a transfer from whom to whom. Nothing is
// stored for it beyond those entries. The refund's claim (the step before the gateway is
// asked) is not shown: its completion or release is.
import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import * as audit from '../audit/audit.service.js';

/** One line of the history: when, what (a sentence), and who did it. */
export interface HistoryLine {
  at: Date;
  action: string;
  what: string;
  by: string;
}

const money = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n)
    ? `₹${n.toLocaleString('en-IN', { minimumFractionDigits: n % 1 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`
    : '';
};
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const holder = (v: unknown) => {
  const h = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  return `${text(h.name) || 'someone'}${text(h.email) ? ` (${text(h.email)})` : ''}`;
};
const withReason = (s: string, reason: unknown) => (text(reason) ? `${s}: ${text(reason)}` : s);

/** What was given back and kept, as a cancellation or refund says it. */
function moneyBack(after: Record<string, unknown>): string {
  const refund = num(after.refund);
  const kept = num(after.kept);
  if (refund === 0 && kept === 0) return '';
  if (refund === 0) return `nothing refunded, ${money(kept)} kept`;
  return kept > 0 ? `${money(refund)} refunded, ${money(kept)} kept` : `${money(refund)} refunded`;
}

/** Who acted, as the history names them. */
export function actorWords(a: audit.AuditActor): string {
  switch (a.kind) {
    case 'attendee':
      return 'the attendee';
    case 'system':
      return 'the service';
    case 'door_pass':
      return 'a door pass';
    case 'key':
      return `API key ${a.display}`;
    default:
      return a.display;
  }
}

/** The sentence of one entry, or undefined for one the history leaves out. */
export function describeEntry(
  e: Pick<audit.HistoryEntry, 'action' | 'before' | 'after'>,
): string | undefined {
  const after = e.after ?? {};
  const before = e.before ?? {};
  const verb = e.action.startsWith('registration.') ? e.action.slice('registration.'.length) : e.action;
  switch (verb) {
    case 'book': {
      const what = `Booked ${num(after.quantity) || 1} × ${text(after.ticketType) || 'ticket'}`;
      return after.status === 'pending'
        ? `${what}, ${num(after.amount) > 0 ? 'awaiting payment' : 'awaiting approval'}`
        : what;
    }
    case 'pay':
      return `Paid ${money(after.amount)}`;
    case 'approve':
      return 'Approved';
    case 'reject':
      return 'Rejected';
    case 'sold_out':
      return 'Paid after the last seat had gone: cancelled, the payment refunded in full';
    case 'expire':
      return 'Expired unpaid';
    case 'lapse_unpaid':
      return 'Cancelled: not paid by its pay-by date';
    case 'mark_paid':
      return `Marked paid ${money(after.amount)} (${text(after.method).replace(/_/g, ' ')})`;
    case 'cancel': {
      const back = moneyBack(after);
      return withReason(back ? `Cancelled: ${back}` : 'Cancelled', after.reason);
    }
    case 'refund': {
      const back = moneyBack(after);
      return withReason(back ? `Refunded: ${back}` : 'Refunded', after.reason);
    }
    case 'partial_refund':
      return withReason(`Partly refunded ${money(after.refund)}`, after.reason);
    case 'refund_claim':
      return undefined;
    case 'refund_release':
      return withReason('A refund was refused by the gateway; nothing changed', after.reason);
    case 'refunded_at_gateway':
      return `Refunded ${money(after.refund)} at the gateway`;
    case 'transfer':
      return `Transferred from ${holder(before.holder)} to ${holder(after.holder)}`;
    default:
      return verb.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  }
}

/** The history lines of entries read oldest first. */
export function historyLines(entries: readonly audit.HistoryEntry[]): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const e of entries) {
    const what = describeEntry(e);
    if (what !== undefined) out.push({ at: e.at, action: e.action, what, by: actorWords(e.actor) });
  }
  return out;
}

/** A booking's history, oldest first. */
export async function registrationHistory(
  db: Kysely<Database>,
  reg: { id: string; account_id: string; mode: Mode },
): Promise<HistoryLine[]> {
  return historyLines(
    await audit.historyOf(db, {
      accountId: reg.account_id,
      mode: reg.mode,
      type: 'registration',
      id: reg.id,
    }),
  );
}

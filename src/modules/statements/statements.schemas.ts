// The statement upload's request and answer schemas, and how a summary is shown at the API edge (rupees).
import { Type } from 'typebox';
import { paiseToRupees } from '../../lib/money.js';
import type { StatementSummary } from './upload-statement.service.js';

const Column = (what: string) => Type.String({ minLength: 1, maxLength: 100, description: what });

export const StatementMapping = Type.Object(
  {
    date: Column('The header of the column holding the transaction date (day first, or ISO).'),
    narration: Column('The header of the narration (description, particulars, remarks) column.'),
    amount: Type.Optional(
      Column('One signed amount column ("-500.00" or "500.00 Dr" is money out). Either this or credit.'),
    ),
    credit: Type.Optional(Column('The credit (deposit) column, when credits and debits are apart.')),
    debit: Type.Optional(Column('The debit (withdrawal) column beside credit.')),
  },
  {
    additionalProperties: false,
    description:
      'Which header names the bank’s export uses. Optional: without it the account’s last mapping is used, else one recognised from the header row; a mapping sent is remembered for the next upload.',
  },
);

export const StatementBody = Type.Object(
  {
    csv: Type.String({
      minLength: 1,
      maxLength: 1_000_000,
      description: 'The statement as exported by the bank (CSV text, at most 5,000 lines below the header).',
    }),
    mapping: Type.Optional(StatementMapping),
  },
  { additionalProperties: false },
);

const REASONS = [
  'no_reference',
  'several_references',
  'unknown_reference',
  'duplicate_reference',
  'amount_differs',
  'not_pending',
  'already_paid',
  'unreadable_line',
] as const;

export const StatementAnswer = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    lines: Type.Integer({ description: 'lines below the header row' }),
    debits: Type.Integer({ description: 'lines paying money out: not payments for bookings, not listed' }),
    marked: Type.Integer({ description: 'bookings this upload marked paid' }),
    markedLines: Type.Array(
      Type.Object({
        line: Type.Integer({ description: 'the line of the file' }),
        reference: Type.String(),
        registrationId: Type.String(),
        amount: Type.Number({ description: 'rupees credited' }),
      }),
    ),
    listed: Type.Array(
      Type.Object({
        line: Type.Integer({ description: 'the line of the file' }),
        reason: Type.Union(
          REASONS.map((r) => Type.Literal(r)),
          { description: 'why a person should decide (docs/guides/offline-payments.md lists each)' },
        ),
        reference: Type.Optional(Type.String()),
        amount: Type.Optional(Type.Number({ description: 'rupees credited by the line' })),
        amountDue: Type.Optional(Type.Number({ description: 'rupees the booking is due' })),
        registrationId: Type.Optional(Type.String()),
      }),
      { description: 'every credit line not marked, in the order of the file' },
    ),
    mapping: StatementMapping,
    mappingSource: Type.Union([
      Type.Literal('given'),
      Type.Literal('remembered'),
      Type.Literal('recognised'),
    ]),
  }),
});

/** The summary at the API edge: rupees, not paise. */
export function presentSummary(s: StatementSummary) {
  const rupees = (p: number | undefined) => (p === undefined ? {} : { amount: paiseToRupees(p) });
  return {
    lines: s.lines,
    debits: s.debits,
    marked: s.marked.length,
    markedLines: s.marked.map(({ creditPaise, ...m }) => ({ ...m, amount: paiseToRupees(creditPaise) })),
    listed: s.listed.map(({ creditPaise, amountDuePaise, ...l }) => ({
      ...l,
      ...rupees(creditPaise),
      ...(amountDuePaise === undefined ? {} : { amountDue: paiseToRupees(amountDuePaise) }),
    })),
    mapping: s.mapping,
    mappingSource: s.mappingSource,
  };
}

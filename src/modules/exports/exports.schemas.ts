// What the CSV exports take and answer, for exports.routes.ts and the OpenAPI document.
import { READ_POOL_NOTE } from '../../db/replica-lag.js';
import { Type } from 'typebox';

const E = Type.Ref('Error');

export const FORMAT_DESCRIPTION = [
  'The file is CSV as RFC 4180 writes it: UTF-8 with a byte order mark (so Excel reads ₹ and names in every script as they are), a header row, records separated by CRLF, and a field that holds a comma, a double quote, a CR or an LF in double quotes with its quotes doubled. It is sent as `text/csv; charset=utf-8` with `Content-Disposition: attachment; filename="…"` and streamed as it is read, so any number of rows downloads in constant memory.',
  "No cell runs as a formula: a cell (header or value) that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a `'` in front (OWASP’s rule), which spreadsheets take to mean text; read back, it is the value with that one quote before it. The service’s own numbers never begin with such a character: amounts are rupees with two decimals and no sign.",
  'Times are India Standard Time with the offset written out (`2026-12-12T10:00:00+05:30`); yes/no fields say `yes` or `no`; an empty field is nothing. Rows are read a page at a time while the file downloads, not in one snapshot: a row written meanwhile may or may not be in the file, and no row is written twice.',
  READ_POOL_NOTE,
].join('\n\n');

const csvAnswer = (description: string) => ({
  description,
  headers: {
    'content-disposition': Type.String({
      description:
        '`attachment; filename="…csv"`: the kind of export, the mode when test, and the day it was made (India time).',
    }),
    'x-replica-lag': Type.String({
      description:
        'How many seconds behind the primary the rows were read (`DATABASE_READ_URL`’s replica), to the millisecond; `0.000` when caught up or without a replica.',
    }),
  },
  content: {
    'text/csv': {
      schema: Type.String({
        contentMediaType: 'text/csv',
        description: 'RFC 4180 CSV, UTF-8 with a byte order mark.',
      }),
    },
  },
});

const Day = (what: string) =>
  Type.Optional(
    Type.String({
      maxLength: 10,
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      description: `${what} (YYYY-MM-DD, India time, inclusive).`,
    }),
  );

/** The event’s registrations (`GET /api/v1/events/:id/registrations/export`). */
export const registrationsExport = {
  tags: ['exports'],
  summary: 'The event’s registrations as a CSV file',
  description: [
    'One record per booking, oldest first: `registration_id`, `status`, `pending_reason`, `name`, `email`, `phone`, `ticket_type` (the tier, or General), `track_number` (the track counted from 1, as people count; the API’s `subEventId` is one less) and `track` (its title), for a seated event `seats` (each person’s seat, `Stalls · Row C, seat 12`, separated by `; `), `quantity` (people on the booking), `team_members` (`Name <email>` of each member after the booker, separated by `; `), `amount` (rupees paid, after any promo code) and `currency`, `payment_method` (`gateway`, or for a booking paid outside the gateway `bank_transfer` / `upi_to_organiser` / `cash_at_venue`: the method recorded on marking it paid, else the one chosen; empty for a free booking), `payment_reference` (the `TKT-` reference a buyer paying outside the gateway quotes), `pay_by`, `paid_reference` and `paid_at` (what the organiser recorded on marking it paid), `promo_code`, `invoice_number` (the tax invoice or bill of supply, for a GST-registered organiser) and `credit_note_number`, `checked_in` (the booker is in) with `checked_in_at`, `people_checked_in` (how many on the booking are in), `ticket_code` (set by a transfer), `booked_at`, `confirmed_at`, `cancelled_at`; then one column per question the event asks, headed by its label (`label [name]` when two questions share a label), and `other_answers`: answers to questions the event no longer asks, as JSON.',
    'Filters (all optional, combined): `status`; `ticketType` (a tier name, or General); `subEventId` (a track index as the API writes it, 0-based); `checkedIn` (`true`: someone on the booking is in; `false`: nobody is); `q` (part of a name or email, or a whole registration id, as the dashboard’s search). An event of another mode is 404, of another account 403, as for the list.',
    FORMAT_DESCRIPTION,
  ].join('\n\n'),
  params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
  querystring: Type.Object(
    {
      status: Type.Optional(
        Type.Union([
          Type.Literal('pending'),
          Type.Literal('confirmed'),
          Type.Literal('cancelled'),
          Type.Literal('refunded'),
        ]),
      ),
      ticketType: Type.Optional(Type.String({ maxLength: 80, description: 'A tier name, or General.' })),
      subEventId: Type.Optional(Type.String({ maxLength: 10, description: 'A track index (0, 1, 2 …).' })),
      checkedIn: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
      q: Type.Optional(
        Type.String({ maxLength: 200, description: 'Part of a name or email, or a whole registration id.' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 200: csvAnswer('The registrations, one record per booking.'), 404: E },
};

/** The members (`GET /api/v1/memberships/members/export`). */
export const membersExport = {
  tags: ['exports'],
  summary: 'The members as a CSV file',
  description: [
    'Every membership of the key’s account and mode, oldest first (only one plan’s with `planId`): `membership_id`, `name`, `email`, `phone`, `plan_id`, `plan` (its name), `plan_kind` (`fixed_term` or `recurring`), `state` (as the API’s `displayStatus`: pending_authorisation, active, past_due, cancelling, ended or expired) and `good_standing`, both computed when the file is made (test mode: on the account’s sandbox clock), `status` (the stored state), `valid_until`, `cancel_at_period_end`, `ended_at`, `source` (`api` or `manual`), `subscription_id`, `joined_at`.',
    FORMAT_DESCRIPTION,
  ].join('\n\n'),
  querystring: Type.Object(
    { planId: Type.Optional(Type.String({ maxLength: 100 })) },
    { additionalProperties: false },
  ),
  response: { 200: csvAnswer('The members, one record per membership.') },
};

/** The ledger (`GET /api/v1/ledger/export`). */
export const ledgerExport = {
  tags: ['exports'],
  summary: 'The ledger as a CSV file',
  description: [
    'The ledger entries of the key’s account and mode (test mode: the sandbox ledger), in the order they were written, created on days `from` to `to` (India time, both inclusive, either optional): `entry_id`, `created_at`, `kind` (ticket_sale, platform_fee, gateway_fee, ticket_refund, platform_fee_reversal, membership_payment, payout_hold, payout_credit) and `description` (the same in words), `credit` or `debit` (rupees without a sign, the other left empty, as on a bank statement: the balance is the sum of credits less the sum of debits), `currency`, `source_type` (registration, membership or payout) and `source_id`, `payment_id` (a membership payment’s), `captured_at`, `available_from` and `state` (`available` or `pending` when the file is made, by `PAYOUT_CLEARING_DAYS`). 400 `invalid_date` for a day that does not exist or `from` after `to`.',
    FORMAT_DESCRIPTION,
  ].join('\n\n'),
  querystring: Type.Object({ from: Day('First day'), to: Day('Last day') }, { additionalProperties: false }),
  response: { 200: csvAnswer('The ledger entries, one record each.') },
};

/** The GST documents (`GET /api/v1/gst/documents/export`). */
export const gstDocumentsExport = {
  tags: ['exports'],
  summary: 'The GST documents (tax invoices, bills of supply, credit notes) as a CSV file',
  description: [
    'Every document of the key’s account and mode issued on days `from` to `to` (India time, both inclusive, either optional), in number order within each supplier GSTIN and series: `number`, `kind` (tax_invoice, bill_of_supply or credit_note), `date`, `issued_at`, `financial_year`, `supplier_gstin`, `supplier_name`, `recipient_name`, `recipient_email`, `recipient_gstin`, `recipient_address`, `recipient_state` and `place_of_supply` (`29-Karnataka`), `supply_type` (intra_state or inter_state), `sac`, `description`, `quantity`, `rate_percent`, `taxable_value`, `cgst`, `sgst`, `utgst`, `igst`, `total` (rupees, as on the document: a credit note’s are the amounts it credits, not negative), `original_number` and `original_date` (a credit note’s invoice), `reason`, `event_id`, `registration_id`, `payment_id`, `test_mode`. 400 `invalid_date` for a day that does not exist or `from` after `to`.',
    FORMAT_DESCRIPTION,
  ].join('\n\n'),
  querystring: Type.Object(
    { from: Day('First day of issue'), to: Day('Last day of issue') },
    { additionalProperties: false },
  ),
  response: { 200: csvAnswer('The documents, one record each.') },
};

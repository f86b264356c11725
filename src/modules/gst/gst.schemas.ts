// The GST routes' schemas, and the buyer's billing details that registration takes.
import { Type } from 'typebox';
import { STATE_CODES } from '../../lib/gstin.js';
import { Nullable } from '../../http/schemas.js';

const StateCode = Type.String({
  maxLength: 2,
  description: `A two-digit GST state code: ${STATE_CODES.join(', ')}.`,
});

export const Settings = Type.Object({
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  registered: Type.Boolean({
    description:
      'True when a GSTIN is set: confirmed paid bookings then get tax invoices (or bills of supply).',
  }),
  gstin: Nullable(Type.String()),
  legalName: Nullable(Type.String()),
  address: Nullable(Type.String()),
  state: Nullable(
    Type.String({
      description: 'The GST state code of the principal place of business (the GSTIN’s first two digits).',
    }),
  ),
  stateName: Nullable(Type.String()),
  seriesPrefix: Type.String({ description: 'Starts every document number of this account and mode.' }),
  updatedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const SettingsBody = Type.Object(
  {
    gstin: Nullable(
      Type.String({
        maxLength: 20,
        description:
          'The organiser’s GSTIN; null for an organiser who is not registered (no GST documents are issued).',
      }),
    ),
    legalName: Type.String({ minLength: 1, maxLength: 200 }),
    address: Type.String({ minLength: 1, maxLength: 500 }),
    state: Type.Optional(Nullable(StateCode)),
    seriesPrefix: Type.Optional(
      Type.String({ minLength: 1, maxLength: 3, description: '1 to 3 letters or digits (default TIX).' }),
    ),
  },
  { additionalProperties: false },
);

const Money = (description: string) => Type.Number({ description: `${description}, rupees.` });
const Party = Type.Object({
  legalName: Type.String(),
  address: Type.String(),
  gstin: Type.String(),
  state: Type.String(),
});
export const DocumentSchema = Type.Object({
  kind: Type.Union([
    Type.Literal('tax_invoice'),
    Type.Literal('bill_of_supply'),
    Type.Literal('credit_note'),
  ]),
  number: Type.String({
    description: 'At most 16 characters: series, financial year, sequence (`TIXI2627-000001`).',
  }),
  date: Type.String({ description: 'The issue date in India time, YYYY-MM-DD.' }),
  issuedAt: Type.String({ format: 'date-time' }),
  financialYear: Type.String({ description: '`2026-27`: April to March, India time.' }),
  testMode: Type.Boolean({ description: 'Test-mode documents are not tax documents.' }),
  supplier: Party,
  recipient: Type.Object({
    name: Type.String(),
    email: Type.String(),
    gstin: Nullable(Type.String()),
    address: Nullable(Type.String()),
    state: Type.String(),
  }),
  placeOfSupply: Type.String({ description: 'GST state code of the event’s venue.' }),
  supplyType: Type.Union([Type.Literal('intra_state'), Type.Literal('inter_state')]),
  reverseCharge: Type.Boolean(),
  line: Type.Object({
    description: Type.String(),
    sac: Type.String(),
    quantity: Type.Integer(),
    rate: Type.Number({ description: 'Percent; 0 for an exempt supply.' }),
    total: Money('Tax-inclusive value'),
    taxableValue: Money('Taxable value'),
    cgst: Money('CGST'),
    sgst: Money('SGST'),
    utgst: Money('UTGST'),
    igst: Money('IGST'),
  }),
  exemption: Nullable(Type.String()),
  original: Nullable(
    Type.Object(
      { kind: Type.String(), number: Type.String(), date: Type.String() },
      { description: 'The document a credit note credits.' },
    ),
  ),
  reason: Nullable(Type.String()),
  paymentId: Nullable(Type.String()),
  eventId: Type.String(),
  registrationId: Type.String(),
});

const Amounts = {
  value: Type.Number({ description: 'Tax-inclusive value, rupees.' }),
  taxableValue: Type.Number(),
  igst: Type.Number(),
  cgst: Type.Number(),
  sgst: Type.Number(),
  utgst: Type.Number(),
};
const InvoiceEntry = Type.Object({
  number: Type.String(),
  date: Type.String(),
  placeOfSupply: Type.String(),
  reverseCharge: Type.Boolean(),
  rate: Type.Number(),
  ...Amounts,
});
const NoteEntry = Type.Object({
  number: Type.String(),
  date: Type.String(),
  placeOfSupply: Type.String(),
  reverseCharge: Type.Boolean(),
  rate: Type.Number(),
  ...Amounts,
  originalNumber: Nullable(Type.String()),
  originalDate: Nullable(Type.String()),
  recipientGstin: Nullable(Type.String()),
});

/** One supplier GSTIN's month, shaped for GSTR-1 (gstr1.ts); amounts in rupees. */
export const Gstr1Supplier = Type.Object({
  gstin: Type.String(),
  b2b: Type.Array(Type.Object({ recipientGstin: Type.String(), invoices: Type.Array(InvoiceEntry) }), {
    description: 'Table 4.',
  }),
  b2cl: Type.Array(InvoiceEntry, {
    description: 'Table 5: inter-state invoices to unregistered buyers above ₹1 lakh.',
  }),
  b2cs: Type.Array(
    Type.Object({ placeOfSupply: Type.String(), supplyType: Type.String(), rate: Type.Number(), ...Amounts }),
    { description: 'Table 7, net of credit notes.' },
  ),
  creditNotes: Type.Object({
    registered: Type.Array(NoteEntry, { description: '9B cdnr.' }),
    unregistered: Type.Array(NoteEntry, { description: '9B cdnur (against b2cl invoices).' }),
  }),
  exempt: Type.Array(
    Type.Object({ supplyType: Type.String(), recipient: Type.String(), value: Type.Number() }),
    { description: 'Table 8, net of credit notes.' },
  ),
  sac: Type.Array(
    Type.Object({
      sac: Type.String(),
      rate: Type.Number(),
      recipient: Type.String({ description: 'b2b or b2c' }),
      quantity: Type.Integer(),
      ...Amounts,
    }),
    { description: 'Table 12, net.' },
  ),
  documents: Type.Array(
    Type.Object({
      series: Type.String(),
      kind: Type.String(),
      from: Type.String(),
      to: Type.String(),
      issued: Type.Integer(),
      cancelled: Type.Integer(),
    }),
    { description: 'Table 13.' },
  ),
  totals: Type.Object(Amounts, { description: 'Net of credit notes.' }),
});

/** What registration takes as `billing`. */
export const BillingInput = Type.Object(
  {
    gstin: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 20,
          description:
            'The buyer’s GSTIN (checked like the organiser’s): the sale is then B2B and its tax invoice names it.',
        }),
      ),
    ),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The name on the invoice (a business’s legal name); default the booking’s name.',
      }),
    ),
    address: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    state: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2,
          description: 'The buyer’s GST state code; default the GSTIN’s, else the place of supply.',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'GST: the buyer’s details for the tax invoice of a paid booking of a GST-registered organiser (all optional; kept for paid bookings only). 400 `invalid_gstin`, `invalid_state`.',
  },
);

/** A registration's `billing` as read back. */
export const Billing = Nullable(
  Type.Object(
    {
      gstin: Nullable(Type.String()),
      name: Nullable(Type.String()),
      address: Nullable(Type.String()),
      state: Nullable(Type.String()),
    },
    {
      description:
        'The buyer’s billing details for the tax invoice, as given at registration (paid bookings).',
    },
  ),
);

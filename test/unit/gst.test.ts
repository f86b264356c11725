// The pure GST rules (docs/decisions/17-the-organisers-office.md, docs/guides/gst.md): GSTIN check characters, the
// tax split of a tax-inclusive price, rates by category, financial years, document numbers,
// the GSTR-1 summary, and how an invoice answer's format is chosen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCreditNote, buildSaleDocument, type SaleFacts } from '../../src/modules/gst/document.js';
import { pdfSafe } from '../../src/modules/gst/document.pdf.js';
import { humanDate, rupees } from '../../src/modules/gst/document.view.js';
import { negotiate } from '../../src/modules/gst/routes/gst-shared.js';
import { B2CL_LIMIT_PAISE, gstr1Summary, isB2cl, monthRange } from '../../src/modules/gst/gstr1.js';
import {
  DEFAULT_SERIES_PREFIX,
  documentNumber,
  financialYear,
  indiaDay,
  rateFor,
  SERIES_PREFIX,
  seriesOf,
  splitTax,
} from '../../src/modules/gst/tax.js';
import { gstinCheckCharacter, gstinProblem, isUtgstTerritory, isValidGstin } from '../../src/lib/gstin.js';

describe('GSTIN', () => {
  it('accepts numbers whose check character is right', () => {
    for (const g of [
      '27AAPFU0939F1ZV',
      '29AAGCR4375J1ZU',
      '04AABCU9603R1ZV',
      '07AAACH7409R1Z3',
      '33AAACT2727Q1Z3',
    ])
      assert.equal(gstinProblem(g), null, g);
  });

  it('refuses a wrong check character, as a typing mistake makes one', () => {
    assert.equal(gstinProblem('24AANFA2641L1ZK'), 'check', 'the reference’s invalid example');
    assert.equal(gstinCheckCharacter('24AANFA2641L1Z'), 'F');
    // One character changed anywhere in the first 14, or two neighbours swapped: the check fails.
    assert.equal(gstinProblem('27AAPFU0939F2ZV'), 'check');
    assert.equal(gstinProblem('27AAPFU0993F1ZV'), 'check');
    assert.equal(gstinProblem('72AAPFU0939F1ZV'), 'state');
  });

  it('refuses what is not shaped like a GSTIN, or starts with no state code', () => {
    for (const g of [
      '',
      '27AAPFU0939F1Z',
      '27AAPFU0939F1ZVX',
      '27aapfu0939f1zv',
      '27AAPFU0939F0ZV',
      '27AAPFU0939F1YV',
      '2AAAPFU0939F1ZV',
      'ZZAAPFU0939F1ZV',
    ])
      assert.equal(gstinProblem(g), 'format', g);
    assert.equal(gstinProblem('99AAPFU0939F1ZD'), 'state');
    assert.equal(isValidGstin('00AAPFU0939F1ZV'), false);
  });

  it('knows the union territories without a legislature (UTGST)', () => {
    for (const c of ['04', '26', '31', '35', '38', '97']) assert.equal(isUtgstTerritory(c), true, c);
    for (const c of ['07', '34', '01', '29']) assert.equal(isUtgstTerritory(c), false, c);
  });
});

describe('splitTax: each tax = price × rate ⁄ (100 + total rate), half-up to the paisa; taxable value the remainder', () => {
  it('₹999 at 18 %: CGST 76.19 + SGST 76.19 on 846.62 within the state, IGST 152.39 on 846.61 across', () => {
    assert.deepEqual(splitTax(99_900, 18, '29', '29'), {
      totalPaise: 99_900,
      taxablePaise: 84_662,
      cgstPaise: 7_619,
      sgstPaise: 7_619,
      utgstPaise: 0,
      igstPaise: 0,
    });
    assert.deepEqual(splitTax(99_900, 18, '29', '27'), {
      totalPaise: 99_900,
      taxablePaise: 84_661,
      cgstPaise: 0,
      sgstPaise: 0,
      utgstPaise: 0,
      igstPaise: 15_239,
    });
  });

  it('UTGST instead of SGST in a union territory without a legislature; SGST in Delhi', () => {
    assert.deepEqual(splitTax(118_00, 18, '04', '04'), {
      totalPaise: 11_800,
      taxablePaise: 10_000,
      cgstPaise: 900,
      sgstPaise: 0,
      utgstPaise: 900,
      igstPaise: 0,
    });
    assert.equal(splitTax(118_00, 18, '07', '07').sgstPaise, 900);
  });

  it('40 % (premium sporting): 20 % each within the state', () => {
    assert.deepEqual(splitTax(140_000, 40, '27', '27'), {
      totalPaise: 140_000,
      taxablePaise: 100_000,
      cgstPaise: 20_000,
      sgstPaise: 20_000,
      utgstPaise: 0,
      igstPaise: 0,
    });
    assert.equal(splitTax(1_000, 40, '27', '29').igstPaise, 286, '1000 × 40 / 140 = 285.71…');
  });

  it('rounds half up: exactly half a paisa goes up, just under goes down', () => {
    // 59 × 18 / 118 = 9 exactly; 1 paisa × 9 / 118 = 0.076 → 0; 1311 × 9/118 = 99.99… → 100.
    assert.equal(splitTax(59, 18, '29', '27').igstPaise, 9);
    assert.equal(splitTax(1, 18, '29', '29').cgstPaise, 0);
    assert.equal(splitTax(1311, 18, '29', '29').cgstPaise, 100);
    // 295 × 9 / 118 = 22.5 exactly: half up to 23.
    assert.deepEqual(
      [splitTax(295, 18, '29', '29').cgstPaise, splitTax(295, 18, '29', '29').taxablePaise],
      [23, 249],
    );
    // 59 × 18/118 = 9 → taxable 50; every total splits without losing a paisa.
    for (const total of [1, 2, 99, 100, 101, 49_999, 50_001, 99_900, 123_456_789]) {
      for (const [s, p] of [
        ['29', '29'],
        ['29', '27'],
        ['04', '04'],
      ] as const) {
        const t = splitTax(total, 18, s, p);
        assert.equal(
          t.taxablePaise + t.cgstPaise + t.sgstPaise + t.utgstPaise + t.igstPaise,
          total,
          `${total} ${s}→${p}`,
        );
      }
    }
  });

  it('rate 0 (exempt): no tax, the whole price taxable value', () => {
    assert.deepEqual(splitTax(50_000, 0, '29', '27'), {
      totalPaise: 50_000,
      taxablePaise: 50_000,
      cgstPaise: 0,
      sgstPaise: 0,
      utgstPaise: 0,
      igstPaise: 0,
    });
    for (const [supplier, place] of [
      ['29', '29'],
      ['04', '04'],
    ] as const) {
      assert.deepEqual(
        splitTax(50_000, 0, supplier, place),
        { totalPaise: 50_000, taxablePaise: 50_000, cgstPaise: 0, sgstPaise: 0, utgstPaise: 0, igstPaise: 0 },
        `${supplier}→${place}`,
      );
    }
  });
});

describe('rateFor', () => {
  it('standard 18, premium sporting 40, none issues nothing', () => {
    assert.equal(rateFor('standard', 100, 1), 18);
    assert.equal(rateFor('premium_sporting', 100, 1), 40);
    assert.equal(rateFor('none', 100, 1), null);
  });

  it('admission at ₹500 or less per person is exempt; above, the whole price at 18 %', () => {
    assert.equal(rateFor('admission_exempt_upto_500', 50_000, 1), 0);
    assert.equal(rateFor('admission_exempt_upto_500', 50_001, 1), 18);
    assert.equal(rateFor('admission_exempt_upto_500', 150_000, 3), 0, '₹1,500 for three is ₹500 each');
    assert.equal(rateFor('admission_exempt_upto_500', 150_001, 3), 18);
  });
});

describe('financial years and numbers', () => {
  it('a financial year runs April to March in India time', () => {
    assert.equal(
      financialYear(new Date('2027-03-31T18:29:59.999Z')),
      '2026-27',
      '23:59:59 on 31 March in India',
    );
    assert.equal(financialYear(new Date('2027-03-31T18:30:00Z')), '2027-28', 'midnight on 1 April in India');
    assert.equal(financialYear(new Date('2027-01-01T00:00:00Z')), '2026-27');
    assert.equal(financialYear(new Date('2099-12-31T00:00:00Z')), '2099-00');
    assert.equal(indiaDay(new Date('2026-11-30T18:30:00Z')), '2026-12-01');
  });

  it('numbers are series, years, sequence: at most 16 characters', () => {
    assert.equal(seriesOf('TIX', 'tax_invoice'), 'TIXI');
    assert.equal(seriesOf('A', 'credit_note'), 'AC');
    assert.equal(seriesOf('TIX', 'bill_of_supply'), 'TIXB');
    assert.equal(documentNumber('TIXI', '2026-27', 1), 'TIXI2627-000001');
    assert.equal(documentNumber('TIXB', '2026-27', 9_999_999), 'TIXB2627-9999999');
    assert.equal(documentNumber('TIXB', '2026-27', 9_999_999).length, 16);
    assert.throws(() => documentNumber('TIXB', '2026-27', 10_000_000), /exhausted/);
  });

  it('a series prefix is 1 to 3 capital letters or digits; without one an organiser numbers TIXI…', () => {
    for (const ok of ['TIX', 'A', 'A1', '2B7']) assert.equal(SERIES_PREFIX.test(ok), true, ok);
    for (const bad of ['', 'TIXI', 'tix', 'T-X', ' TIX', 'TIX ', 'ATIXA'])
      assert.equal(SERIES_PREFIX.test(bad), false, bad);
    assert.equal(SERIES_PREFIX.test(DEFAULT_SERIES_PREFIX), true);
    assert.equal(
      documentNumber(seriesOf(DEFAULT_SERIES_PREFIX, 'tax_invoice'), '2026-27', 1),
      'TIXI2627-000001',
    );
  });

  it('months are India-time day ranges', () => {
    assert.deepEqual(monthRange('2026-12'), { from: '2026-12-01', to: '2027-01-01' });
    assert.deepEqual(monthRange('2027-02'), { from: '2027-02-01', to: '2027-03-01' });
    for (const bad of [
      '2026-13',
      '2026-1',
      '26-01',
      '2026-00',
      '',
      '2026-123',
      '2026-12-01',
      'x2026-12',
      '12026-12',
    ])
      assert.equal(monthRange(bad), undefined, bad);
  });

  it('formats rupees with Indian grouping and dates for people', () => {
    assert.deepEqual(
      [rupees(0), rupees(5), rupees(99_900), rupees(12_345_678_901), rupees(-150)],
      ['0.00', '0.05', '999.00', '12,34,56,789.01', '-1.50'],
    );
    assert.equal(humanDate('2026-12-05'), '05 Dec 2026');
    assert.equal(pdfSafe('₹500 · Asha — देव'), 'Rs. 500 · Asha — ???');
  });
});

const supplier = { legalName: 'Org LLP', address: 'Bengaluru', gstin: '29AAGCR4375J1ZU', stateCode: '29' };
let n = 0;
function sale(over: Partial<SaleFacts> = {}) {
  n++;
  return buildSaleDocument({
    number: `TIXI2627-${String(n).padStart(6, '0')}`,
    kind: 'tax_invoice',
    issuedAt: new Date('2026-12-05T10:00:00Z'),
    date: '2026-12-05',
    financialYear: '2026-27',
    testMode: false,
    supplier,
    buyer: { name: 'B', email: 'b@x.in', gstin: null, address: null, stateCode: null },
    placeOfSupply: '29',
    rate: 18,
    description: 'Admission',
    sac: '999622',
    quantity: 1,
    amountPaise: 118_00,
    paymentId: null,
    eventId: 'ev_1',
    registrationId: `reg_${n}`,
    ...over,
  });
}
const item = (
  doc: ReturnType<typeof sale>,
  original: ReturnType<typeof sale> | null = null,
  series = doc.number.slice(0, 4),
) => ({
  gstin: doc.supplier.gstin,
  series,
  seq: Number(doc.number.slice(9)),
  doc,
  original,
});

describe('GSTR-1 summary', () => {
  it('sorts a month into B2B, B2CL, B2CS net of credit notes, exempt, SAC and document ranges', () => {
    const intra = sale();
    const intra2 = sale();
    const inter = sale({ placeOfSupply: '27' });
    const b2b = sale({
      buyer: { name: 'Co', email: 'c@x.in', gstin: '07AAACH7409R1Z3', address: 'Delhi', stateCode: '07' },
      placeOfSupply: '27',
    });
    const large = sale({ placeOfSupply: '27', amountPaise: 118_000_01 });
    const exempt = sale({ kind: 'bill_of_supply', rate: 0, amountPaise: 500_00, number: 'TIXB2627-000001' });
    const note = buildCreditNote(intra2, {
      number: 'TIXC2627-000001',
      issuedAt: new Date('2026-12-06T10:00:00Z'),
      date: '2026-12-06',
      financialYear: '2026-27',
      reason: 'refund',
    });
    const noteB2b = buildCreditNote(b2b, {
      number: 'TIXC2627-000002',
      issuedAt: new Date('2026-12-06T10:00:00Z'),
      date: '2026-12-06',
      financialYear: '2026-27',
      reason: 'refund',
    });
    const [s] = gstr1Summary([
      item(intra),
      item(intra2),
      item(inter),
      item(b2b),
      item(large),
      item(exempt),
      item(note, intra2),
      item(noteB2b, b2b),
    ]);
    assert.equal(s!.gstin, '29AAGCR4375J1ZU');
    assert.deepEqual(s!.b2b, [
      {
        recipientGstin: '07AAACH7409R1Z3',
        invoices: [
          {
            number: b2b.number,
            date: '2026-12-05',
            placeOfSupply: '27',
            reverseCharge: false,
            rate: 18,
            value: 118,
            taxableValue: 100,
            igst: 18,
            cgst: 0,
            sgst: 0,
            utgst: 0,
          },
        ],
      },
    ]);
    assert.deepEqual(
      s!.b2cl.map((i) => [i.number, i.value]),
      [[large.number, 118000.01]],
    );
    // Two intra-state invoices less one credit note: one invoice's worth.
    assert.deepEqual(s!.b2cs, [
      {
        placeOfSupply: '29',
        supplyType: 'intra_state',
        rate: 18,
        value: 118,
        taxableValue: 100,
        igst: 0,
        cgst: 9,
        sgst: 9,
        utgst: 0,
      },
      {
        placeOfSupply: '27',
        supplyType: 'inter_state',
        rate: 18,
        value: 118,
        taxableValue: 100,
        igst: 18,
        cgst: 0,
        sgst: 0,
        utgst: 0,
      },
    ]);
    assert.deepEqual(
      s!.creditNotes.registered.map((c) => [c.number, c.originalNumber, c.recipientGstin, c.value]),
      [['TIXC2627-000002', b2b.number, '07AAACH7409R1Z3', 118]],
    );
    assert.deepEqual(s!.creditNotes.unregistered, []);
    assert.deepEqual(s!.exempt, [{ supplyType: 'intra_state', recipient: 'unregistered', value: 500 }]);
    assert.deepEqual(s!.documents, [
      { series: 'TIXI', kind: 'tax_invoice', from: intra.number, to: large.number, issued: 5, cancelled: 0 },
      {
        series: 'TIXB',
        kind: 'bill_of_supply',
        from: 'TIXB2627-000001',
        to: 'TIXB2627-000001',
        issued: 1,
        cancelled: 0,
      },
      {
        series: 'TIXC',
        kind: 'credit_note',
        from: 'TIXC2627-000001',
        to: 'TIXC2627-000002',
        issued: 2,
        cancelled: 0,
      },
    ]);
    const b2cSac = s!.sac.find((r) => r.recipient === 'b2c' && r.rate === 18)!;
    assert.deepEqual([b2cSac.quantity, b2cSac.value], [3, 118_236.01], 'intra, intra2 − note, inter, large');
    assert.equal(s!.totals.value, 118_736.01, 'net of both credit notes');
  });

  it('a credit note against a B2CL invoice is reported one by one (cdnur), not netted', () => {
    const large = sale({ placeOfSupply: '27', amountPaise: 200_000_00 });
    const note = buildCreditNote(large, {
      number: 'TIXC2627-000009',
      issuedAt: new Date(),
      date: '2026-12-07',
      financialYear: '2026-27',
      reason: 'refund',
    });
    const [s] = gstr1Summary([item(note, large)]);
    assert.deepEqual(
      s!.creditNotes.unregistered.map((c) => [c.number, c.originalNumber, c.value]),
      [['TIXC2627-000009', large.number, 200000]],
    );
    assert.deepEqual(s!.b2cs, []);
  });
});

describe('negotiate: the invoice answer’s format from Accept', () => {
  it('picks the highest q among JSON, PDF and HTML; JSON without a header or on a tie', () => {
    assert.equal(negotiate(undefined), 'json');
    assert.equal(negotiate('*/*'), 'json');
    assert.equal(negotiate('application/pdf'), 'pdf');
    assert.equal(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), 'html');
    assert.equal(negotiate('application/json;q=0.5, application/pdf'), 'pdf');
    assert.equal(negotiate('application/*;q=0.2, text/html;q=0.1'), 'json');
    assert.equal(negotiate('application/pdf;q=0, text/plain'), 'json');
    assert.equal(negotiate('image/png'), 'json');
  });
});

describe('GSTR-1: which table a document goes to', () => {
  const registered = {
    name: 'Co',
    email: 'c@x.in',
    gstin: '07AAACH7409R1Z3',
    address: 'Delhi',
    stateCode: '07',
  };
  const note = (of: ReturnType<typeof sale>, number: string, refundPaise?: number) =>
    buildCreditNote(of, {
      number,
      issuedAt: new Date('2026-12-06T10:00:00Z'),
      date: '2026-12-06',
      financialYear: '2026-27',
      reason: 'refund',
      refundPaise,
    });

  it('B2CL is a tax invoice to an unregistered buyer in another state above ₹1 lakh, and nothing else', () => {
    assert.equal(B2CL_LIMIT_PAISE, 1_00_000_00);
    assert.equal(isB2cl(sale({ placeOfSupply: '27', amountPaise: 1_00_000_01 })), true);
    assert.equal(
      isB2cl(sale({ placeOfSupply: '27', amountPaise: 1_00_000_00 })),
      false,
      'exactly ₹1 lakh is not above it',
    );
    assert.equal(isB2cl(sale({ placeOfSupply: '29', amountPaise: 2_00_000_00 })), false, 'within the state');
    assert.equal(
      isB2cl(sale({ placeOfSupply: '27', amountPaise: 2_00_000_00, buyer: registered })),
      false,
      'a registered buyer is B2B',
    );
    assert.equal(
      isB2cl(sale({ placeOfSupply: '27', amountPaise: 2_00_000_00, kind: 'bill_of_supply', rate: 0 })),
      false,
      'a bill of supply is exempt',
    );
  });

  it('reports an invoice of exactly ₹1 lakh across states with B2CS, one above it with B2CL', () => {
    const at = sale({ placeOfSupply: '27', amountPaise: 1_00_000_00 });
    const above = sale({ placeOfSupply: '27', amountPaise: 1_00_000_01 });
    const intra = sale({ placeOfSupply: '29', amountPaise: 2_00_000_00 });
    const [s] = gstr1Summary([item(at), item(above), item(intra)]);
    assert.deepEqual(
      s!.b2cl.map((i) => i.number),
      [above.number],
    );
    assert.deepEqual(
      s!.b2cs.map((r) => [r.placeOfSupply, r.value]),
      [
        ['27', 100_000],
        ['29', 200_000],
      ],
    );
  });

  it('lists every invoice to one registered buyer under its GSTIN', () => {
    const one = sale({ buyer: registered, placeOfSupply: '27' });
    const two = sale({ buyer: registered, placeOfSupply: '27', amountPaise: 236_00 });
    const [s] = gstr1Summary([item(one), item(two)]);
    assert.deepEqual(
      s!.b2b.map((b) => [b.recipientGstin, b.invoices.map((i) => [i.number, i.value, i.igst])]),
      [
        [
          '07AAACH7409R1Z3',
          [
            [one.number, 118, 18],
            [two.number, 236, 36],
          ],
        ],
      ],
    );
  });

  it('sums UTGST in a union territory without a legislature', () => {
    const chandigarh = {
      legalName: 'UT Events',
      address: 'Chandigarh',
      gstin: '04AABCU9603R1ZV',
      stateCode: '04',
    };
    const a = sale({ supplier: chandigarh, placeOfSupply: '04' });
    const b = sale({ supplier: chandigarh, placeOfSupply: '04' });
    const [s] = gstr1Summary([item(a), item(b)]);
    assert.deepEqual(s!.b2cs, [
      {
        placeOfSupply: '04',
        supplyType: 'intra_state',
        rate: 18,
        value: 236,
        taxableValue: 200,
        igst: 0,
        cgst: 18,
        sgst: 0,
        utgst: 18,
      },
    ]);
    assert.deepEqual(s!.totals, { value: 236, taxableValue: 200, igst: 0, cgst: 18, sgst: 0, utgst: 18 });
  });

  it('reports a credit note where its invoice was: a part refund of a B2CL invoice is still cdnur, naming the invoice and its date', () => {
    const large = sale({ placeOfSupply: '27', amountPaise: 2_36_000_00 });
    const part = note(large, 'TIXC2627-000011', 1_18_00);
    const [s] = gstr1Summary([item(part, large)]);
    assert.deepEqual(
      s!.creditNotes.unregistered.map((c) => [
        c.number,
        c.date,
        c.originalNumber,
        c.originalDate,
        c.recipientGstin,
        c.value,
        c.igst,
      ]),
      [['TIXC2627-000011', '2026-12-06', large.number, '2026-12-05', null, 118, 18]],
    );
    assert.deepEqual(s!.b2cs, []);
    assert.deepEqual(s!.totals, { value: -118, taxableValue: -100, igst: -18, cgst: 0, sgst: 0, utgst: 0 });
  });

  it('nets a credit note of a small invoice from B2CS, and names the original of a registered buyer’s note', () => {
    const small = sale({ placeOfSupply: '27' });
    const b2b = sale({ buyer: registered, placeOfSupply: '27' });
    const [s] = gstr1Summary([
      item(note(small, 'TIXC2627-000012'), small),
      item(note(b2b, 'TIXC2627-000013'), b2b),
    ]);
    assert.deepEqual(s!.b2cs, [
      {
        placeOfSupply: '27',
        supplyType: 'inter_state',
        rate: 18,
        value: -118,
        taxableValue: -100,
        igst: -18,
        cgst: 0,
        sgst: 0,
        utgst: 0,
      },
    ]);
    assert.deepEqual(
      s!.creditNotes.registered.map((c) => [c.number, c.originalNumber, c.originalDate, c.recipientGstin]),
      [['TIXC2627-000013', b2b.number, '2026-12-05', '07AAACH7409R1Z3']],
    );
  });

  it('keeps exempt supplies apart by supply type and by whether the buyer is registered, net of their credit notes', () => {
    const exemptSale = (over: Partial<SaleFacts>) =>
      sale({ kind: 'bill_of_supply', rate: 0, amountPaise: 400_00, ...over });
    const a = exemptSale({ number: 'TIXB2627-000001' });
    const b = exemptSale({ number: 'TIXB2627-000002', buyer: registered });
    const c = exemptSale({ number: 'TIXB2627-000003', placeOfSupply: '27' });
    const refunded = exemptSale({ number: 'TIXB2627-000004' });
    const [s] = gstr1Summary([
      item(a),
      item(b),
      item(c),
      item(refunded),
      item(note(refunded, 'TIXC2627-000014'), refunded),
    ]);
    assert.deepEqual(s!.exempt, [
      { supplyType: 'intra_state', recipient: 'unregistered', value: 400 },
      { supplyType: 'intra_state', recipient: 'registered', value: 400 },
      { supplyType: 'inter_state', recipient: 'unregistered', value: 400 },
    ]);
  });

  it('counts people in the SAC summary, net of credit notes, B2B and B2C apart', () => {
    const three = sale({ quantity: 3, amountPaise: 354_00 });
    const two = sale({ quantity: 2, amountPaise: 236_00 });
    const firm = sale({ quantity: 4, amountPaise: 472_00, buyer: registered });
    const [s] = gstr1Summary([item(three), item(two), item(note(two, 'TIXC2627-000015'), two), item(firm)]);
    assert.deepEqual(
      s!.sac.map((r) => [r.sac, r.rate, r.recipient, r.quantity, r.value, r.taxableValue]),
      [
        ['999622', 18, 'b2c', 3, 354, 300],
        ['999622', 18, 'b2b', 4, 472, 400],
      ],
    );
  });

  it('gives each series’ lowest and highest number, whatever order the documents come in', () => {
    const docs = [sale(), sale(), sale()];
    const [s] = gstr1Summary([item(docs[1]!), item(docs[2]!), item(docs[0]!)]);
    assert.deepEqual(s!.documents, [
      {
        series: 'TIXI',
        kind: 'tax_invoice',
        from: docs[0]!.number,
        to: docs[2]!.number,
        issued: 3,
        cancelled: 0,
      },
    ]);
  });

  it('answers one summary per supplier GSTIN, in GSTIN order', () => {
    const mumbai = { legalName: 'Org LLP', address: 'Mumbai', gstin: '27AAPFU0939F1ZV', stateCode: '27' };
    const chennai = { legalName: 'Org LLP', address: 'Chennai', gstin: '33AAACT2727Q1Z3', stateCode: '33' };
    const out = gstr1Summary([
      item(sale({ supplier: chennai, placeOfSupply: '33' })),
      item(sale()),
      item(sale({ supplier: mumbai, placeOfSupply: '27' })),
    ]);
    assert.deepEqual(
      out.map((x) => [x.gstin, x.totals.value]),
      [
        ['27AAPFU0939F1ZV', 118],
        ['29AAGCR4375J1ZU', 118],
        ['33AAACT2727Q1Z3', 118],
      ],
    );
  });
});

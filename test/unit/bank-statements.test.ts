// The pure rules of a bank statement upload (docs/decisions/24-payment-outside-the-gateway.md):
// amounts and dates as Indian banks write them, the references a narration names, the header
// row and the columns recognised, and which lines mark which bookings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStatement, referencesIn } from '../../src/modules/statements/match-statement.js';
import {
  guessMapping,
  parseAmount,
  parseDate,
  readRows,
  statementLines,
} from '../../src/modules/statements/parse-statement.js';

describe('bank statement rules', () => {
  it('reads amounts as Indian banks write them', () => {
    const cases: [string, number | null][] = [
      ['1,234.50', 123450],
      ['₹1,23,456.00', 12345600],
      ['Rs. 500', 50000],
      ['INR 499.5', 49950],
      ['500.00 Cr', 50000],
      ['500.00 Dr', -50000],
      ['-500', -50000],
      ['(1,000.00)', -100000],
      ['12.345', null],
      ['abc', null],
      ['', null],
      ['9'.repeat(400), null],
    ];
    for (const [text, paise] of cases) assert.equal(parseAmount(text), paise, text);
  });

  it('reads dates day first, or ISO', () => {
    const cases: [string, string | null][] = [
      ['02/12/2026', '2026-12-02'],
      ['02-12-26', '2026-12-02'],
      ['2.12.2026', '2026-12-02'],
      ['02-Dec-2026', '2026-12-02'],
      ['02 December 2026', '2026-12-02'],
      ['2026-12-02', '2026-12-02'],
      ['02/12/2026 10:15:00', '2026-12-02'],
      ['31/02/2026', null],
      ['12/31/2026', null],
      ['02 Foo 2026', null],
    ];
    for (const [text, day] of cases) assert.equal(parseDate(text), day, text);
  });

  it('finds references in a narration, and reads spaces inside one only when nothing else is there', () => {
    assert.deepEqual(referencesIn('NEFT CR-HDFC0000123-PRIYA-TKT-7F3K9M'), ['TKT-7F3K9M']);
    assert.deepEqual(referencesIn('upi/tkt7f3k9m/okaxis'), ['TKT-7F3K9M']);
    assert.deepEqual(referencesIn('for tkt 7f3k9m'), ['TKT-7F3K9M']);
    assert.deepEqual(referencesIn('TKT 7F3 K9M'), ['TKT-7F3K9M']);
    assert.deepEqual(referencesIn('TKT-7F3K9M and TKT-Q4WZ7P'), ['TKT-7F3K9M', 'TKT-Q4WZ7P']);
    assert.deepEqual(referencesIn('TKT-7F3K9M TKT-7F3K9M'), ['TKT-7F3K9M']);
    assert.deepEqual(referencesIn('TKT-7F3K9MX'), [], 'seven characters: not a reference');
    assert.deepEqual(referencesIn('tkt 7f3 k9m for the workshop'), ['TKT-7F3K9M']);
    assert.deepEqual(
      referencesIn('TKT 7F3K9 MUMBAI'),
      [],
      'the sixth character inside a word: no one reading',
    );
    assert.deepEqual(referencesIn('TKT-0F3K9M'), [], 'no 0, O, 1 or I in a reference');
    assert.deepEqual(referencesIn('CASH DEPOSIT'), []);
  });

  it('skips the preamble to the header, and recognises the common headers', async () => {
    const rows = await readRows(
      'HDFC BANK,,\nPeriod 01/12 to 05/12,,\nDate,Narration,Withdrawal Amt.,Deposit Amt.\n02/12/26,x,,"1,000.00"\n03/12/26,y,50.00,\n',
    );
    const m = guessMapping(rows)!;
    assert.deepEqual(m, {
      date: 'Date',
      narration: 'Narration',
      credit: 'Deposit Amt.',
      debit: 'Withdrawal Amt.',
    });
    const lines = await statementLines(rows, m);
    assert.deepEqual(
      lines.map((l) => [l.line, l.date, l.creditPaise, l.debit]),
      [
        [4, '2026-12-02', 100000, false],
        [5, '2026-12-03', 0, true],
      ],
    );
  });

  it('marks only a single exact match of an awaiting booking; lists the rest', () => {
    const line = (n: number, narration: string, paise: number) => ({
      line: n,
      date: '2026-12-02',
      creditPaise: paise,
      debit: false,
      narration,
    });
    const b = (id: string, reference: string, more: object = {}) => ({
      id,
      reference,
      awaiting: true,
      markedPaid: false,
      amountPaise: 50000,
      ...more,
    });
    const plan = planStatement(
      [
        line(1, 'TKT-AAAAAA', 50000),
        line(2, 'TKT-BBBBBB', 40000),
        line(3, 'TKT-CCCCCC', 50000),
        line(4, 'again TKT-CCCCCC', 50000),
        line(5, 'TKT-DDDDDD', 50000),
        line(6, 'TKT-EEEEEE', 50000),
        line(7, 'TKT-FFFFFF', 50000),
      ],
      [
        b('reg_a', 'TKT-AAAAAA'),
        b('reg_b', 'TKT-BBBBBB'),
        b('reg_c', 'TKT-CCCCCC'),
        b('reg_e', 'TKT-EEEEEE', { awaiting: false }),
        b('reg_f', 'TKT-FFFFFF', { awaiting: false, markedPaid: true }),
      ],
    );
    assert.deepEqual(
      plan.toMark.map((m) => m.registrationId),
      ['reg_a'],
    );
    assert.deepEqual(
      plan.listed.map((l) => [l.line, l.reason]),
      [
        [2, 'amount_differs'],
        [3, 'duplicate_reference'],
        [4, 'duplicate_reference'],
        [5, 'unknown_reference'],
        [6, 'not_pending'],
        [7, 'already_paid'],
      ],
    );
  });
});

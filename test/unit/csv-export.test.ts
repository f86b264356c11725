// The exports' CSV rules (docs/decisions/17-the-organisers-office.md), pure: which cells are neutralised, how values become text,
// and that any text survives a round trip through csv-stringify and csv-parse.
import assert from 'node:assert/strict';
import { buffer } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import {
  cellText,
  csvStream,
  istTimestamp,
  neutralise,
  rupeesText,
  type Column,
} from '../../src/modules/exports/csv.js';
import { instantsOf, parseDayRange } from '../../src/modules/exports/exports.service.js';
import { AppError } from '../../src/lib/errors.js';

/** The bytes as written (TextDecoder would drop the BOM). */
const text = async (stream: Readable) => (await buffer(stream)).toString('utf8');

async function* from<T>(items: readonly T[]) {
  yield* items;
}

describe('neutralise', () => {
  it('puts a quote before a cell beginning with =, +, -, @, tab or CR, and leaves every other cell alone', () => {
    for (const c of ['=1+1', '+91', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x","y")'])
      assert.equal(neutralise(c), `'${c}`);
    for (const c of ['', 'Asha', ' =1', "'=1", '1-2', 'a=b', '\nx', '₹999', 'सुब्रमण्यम्'])
      assert.equal(neutralise(c), c);
  });
  it('never leaves a cell that begins with a formula character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        (s) => !/^[=+\-@\t\r]/.test(neutralise(s)) && (neutralise(s) === s || neutralise(s) === `'${s}`),
      ),
    );
  });
});

describe('cells', () => {
  it('writes values as text: yes/no, India time, numbers as written, nothing for null', () => {
    assert.equal(cellText(null), '');
    assert.equal(cellText(undefined), '');
    assert.equal(cellText(true), 'yes');
    assert.equal(cellText(false), 'no');
    assert.equal(cellText(42), '42');
    assert.equal(cellText(-1), "'-1", 'a negative number would begin with -');
    assert.equal(cellText(new Date('2026-12-12T04:30:00.123Z')), '2026-12-12T10:00:00+05:30');
    assert.equal(istTimestamp(new Date('2026-03-31T18:30:00Z')), '2026-04-01T00:00:00+05:30');
  });
  it('writes whole paise as rupees with two decimals, exactly', () => {
    assert.equal(rupeesText(0), '0.00');
    assert.equal(rupeesText(5), '0.05');
    assert.equal(rupeesText(99900), '999.00');
    assert.equal(rupeesText(100_000_000_01), '100000000.01');
    assert.equal(rupeesText(-1500), '-15.00');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        (p) => BigInt(rupeesText(p).replace('.', '')) === BigInt(p),
      ),
    );
  });
});

describe('csvStream', () => {
  const columns: Column<{ a: string; b: string }>[] = [
    { header: 'a', value: (r) => r.a },
    { header: '=b', value: (r) => r.b },
  ];
  it('writes a BOM, the header and CRLF records, and reads back as written (neutralised cells with their quote)', async () => {
    const out = await text(await csvStream(columns, from([{ a: 'x,"y"\r\nz', b: '-1' }])));
    assert.equal(out, '\ufeffa,\'=b\r\n"x,""y""\r\nz",\'-1\r\n');
  });
  it('round-trips any text through csv-parse', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ a: fc.string({ unit: 'binary' }), b: fc.string({ unit: 'grapheme' }) }), {
          maxLength: 20,
        }),
        async (rows) => {
          const out = await text(await csvStream(columns, from(rows)));
          const [header, ...records] = parse(out, { bom: true }) as string[][];
          assert.deepEqual(header, ['a', "'=b"]);
          assert.deepEqual(
            records,
            rows.map((r) => [neutralise(r.a), neutralise(r.b)]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
  it('ends with the error of a source that fails', async () => {
    async function* failing() {
      yield { a: '1', b: '2' };
      throw new Error('database went away');
    }
    await assert.rejects(text(await csvStream(columns, failing())), /database went away/);
  });
  it('fails the call itself, before any byte, when the source fails at its first row', async () => {
    async function* refused(): AsyncGenerator<{ a: string; b: string }> {
      throw new Error('invalid byte sequence');
    }
    await assert.rejects(csvStream(columns, refused()), /invalid byte sequence/);
  });
});

describe('day ranges', () => {
  it('takes real days in order, and covers them in India time', () => {
    assert.deepEqual(parseDayRange({}), { from: undefined, to: undefined });
    assert.deepEqual(instantsOf({ from: '2026-04-01', to: '2026-04-30' }), {
      from: new Date('2026-03-31T18:30:00Z'),
      to: new Date('2026-04-30T18:30:00Z'),
    });
    for (const bad of [
      { from: '2026-02-30' },
      { to: '2026-13-01' },
      { from: '2026-4-1' },
      { from: '2026-04-02', to: '2026-04-01' },
    ]) {
      assert.throws(
        () => parseDayRange(bad),
        (e: unknown) => e instanceof AppError && e.code === 'invalid_date',
        JSON.stringify(bad),
      );
    }
  });
});

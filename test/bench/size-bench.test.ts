// `npm run bench:size` at 20,000 registrations over 20 events (bench/size-run.ts), on the
// run's storage: the in-process service on a database of its own, the data loaded set-based,
// the baseline beside it, every question asked over HTTP for a moment. What it must show
// whatever the machine: the loaded counts are those asked, a page answers 100 rows, an export
// has every registration of the event, the analytics count them all, and the section renders
// every target with a verdict. Timings are printed, never asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import {
  countInBucket,
  eventSizes,
  expectedCounts,
  peopleOf,
  planEvents,
  windows,
} from '../../bench/size-data.js';
import { SIZE_TARGETS } from '../../bench/size-measure.js';
import { renderPlans } from '../../bench/size-plans.js';
import { renderSize, SIZE_END, SIZE_START, sizeSectionOf, withSizeSection } from '../../bench/size-report.js';
import { END as DROP_END, START as DROP_START } from '../../bench/drop-sim-report.js';
import { withKeptSections } from '../../bench/kept-sections.js';
import { runSize, type SizeFigures } from '../../bench/size-run.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the shape of the size benchmark’s data', () => {
  it('spreads exactly the registrations asked over the events, a few big ones first', () => {
    const sizes = eventSizes(10_000_000, 10_000);
    assert.equal(
      sizes.reduce((s, n) => s + n, 0),
      10_000_000,
    );
    assert.ok(sizes.filter((n) => n >= 100_000).length >= 3, 'a few events of 100,000 or more');
    assert.ok(sizes[9_999]! > 50 && sizes[9_999]! < 500, `the smallest: ${sizes[9_999]}`);
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! <= sizes[i - 1]!);
  });

  it('counts statuses and people as the SQL makes them from g', () => {
    for (const n of [1, 99, 100, 101, 250, 12_345])
      for (const [from, to] of [
        [0, 84],
        [84, 87],
        [93, 100],
      ] as const) {
        let direct = 0;
        for (let g = 1; g <= n; g++) if (g % 100 >= from && g % 100 < to) direct++;
        assert.equal(countInBucket(n, from, to), direct, `${n} [${from}, ${to})`);
      }
    for (const n of [1, 2, 3, 4, 5, 7, 10, 999]) {
      let direct = 0;
      for (let g = 1; g <= n; g++) direct += 1 + (g % 4);
      assert.equal(peopleOf({ kind: 'team', registrations: n }), direct);
    }
  });
});

describe('the windows of time the data is loaded in', () => {
  it('hold every registration of every event once, window after window in the order they sold', () => {
    const now = new Date('2026-11-30T00:00:00Z');
    const events = planEvents({ registrations: 200_000, events: 300, accounts: 4 }, now);
    const all = windows(events, 10_000);
    assert.ok(all.length >= 15, `${all.length} windows`);
    const covered = new Map<number, number[]>();
    for (const parts of all)
      for (const p of parts)
        covered.set(p.event.index, [...(covered.get(p.event.index) ?? []), p.gFrom, p.gTo]);
    for (const e of events) {
      const ranges = covered.get(e.index)!;
      assert.equal(ranges[0], 1, `event ${e.index} starts at 1`);
      assert.equal(ranges[ranges.length - 1], e.registrations, `event ${e.index} ends at n`);
      for (let i = 2; i < ranges.length; i += 2)
        assert.equal(ranges[i], ranges[i - 1]! + 1, `event ${e.index}: no gap, no overlap`);
    }
    // A slot's start (createdAt + (g − 1) × length / n) never goes back from one window to the next.
    const slot = (p: (typeof all)[number][number], g: number) =>
      p.event.createdAt.getTime() +
      ((g - 1) * (p.event.salesEnd.getTime() - p.event.createdAt.getTime())) / p.event.registrations;
    for (let w = 1; w < all.length; w++) {
      const latest = Math.max(...all[w - 1]!.map((p) => slot(p, p.gTo)));
      const earliest = Math.min(...all[w]!.map((p) => slot(p, p.gFrom)));
      assert.ok(earliest >= latest, `window ${w} starts before window ${w - 1} ends`);
    }
  });
});

describe('BENCHMARKS.md as npm run bench rewrites it', () => {
  it('keeps the size section and the drop simulation’s as they were, after the new report', () => {
    const size = `${SIZE_START}\n## Size\nold figures\n${SIZE_END}\n`;
    const drop = `${DROP_START}\n## Drop simulation\nold figures\n${DROP_END}\n`;
    const old = `# Benchmarks\n\nold report\n\n${drop}\n${size}`;
    const doc = withKeptSections('# Benchmarks\n\nnew report\n', old);
    assert.ok(doc.startsWith('# Benchmarks\n\nnew report\n'));
    assert.ok(!doc.includes('old report'));
    assert.equal(sizeSectionOf(doc), size);
    assert.ok(doc.includes(drop));
    assert.equal(withKeptSections('# Benchmarks\n', '# Benchmarks\n'), '# Benchmarks\n', 'nothing to keep');
  });
});

describe('npm run bench:size at 20,000 registrations over 20 events', () => {
  let server: TestServer;
  let f: SizeFigures;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    const databaseUrl = server.deps.config.databaseUrl ?? embeddedDatabaseUrl(server.dataDir);
    f = await runSize(
      { serviceUrl: server.url, databaseUrl },
      {
        registrations: 20_000,
        events: 20,
        accounts: 2,
        concurrency: 2,
        seconds: 0.3,
        runs: 1,
        warmupSeconds: 0,
        windowRows: 5_000,
        plans: true,
        progress: () => {},
      },
    );
  });

  after(async () => {
    await server?.close();
  });

  it('loads the counts asked, on the service’s tables and on the baseline’s', () => {
    const planned = expectedCounts(
      planEvents({ registrations: 20_000, events: 20, accounts: 2 }, new Date()),
    );
    assert.equal(f.counted.events, 20);
    assert.equal(f.counted.registrations, 20_000);
    assert.equal(f.counted.attendees, planned.attendees);
    assert.equal(f.counted.ref_size_events, 20);
    assert.equal(f.counted.ref_size_registrations, 20_000);
    assert.equal(f.counted.ref_size_attendees, planned.attendees);
    assert.deepEqual(f.expected, planned);
    for (const t of ['audit_log', 'checkin_log', 'jobs', 'webhook_deliveries', 'ref_size_audit'])
      assert.ok(f.counted[t]! > 0, `${t} has rows`);
    assert.ok(f.counted.audit_log! >= 20_000, 'an audit entry for each booking at least');
  });

  it('answers every question right on both sides: pages of 100, the analytics, every row exported', () => {
    assert.equal(f.checks.right, true, f.checks.lines.join('\n'));
    assert.equal(f.big.registrations, f.events[0]!.registrations);
    const exported = f.checks.lines.filter((l) =>
      l.includes(`${f.big.registrations.toLocaleString('en')} rows of`),
    );
    assert.equal(exported.length, 2, f.checks.lines.join('\n'));
    for (const s of f.series) {
      assert.equal(s.runs.length, 1, s.name);
      assert.ok(s.runs[0]!.done > 0, `${s.name} answered`);
      assert.equal(s.runs[0]!.errors, 0, `${s.name}: no wrong answer`);
    }
  });

  it('renders the section with every target’s verdict, and the plans of each figure', () => {
    const at = new Date();
    const section = renderSize(f, {
      machine: 'test machine',
      postgres: 'PostgreSQL',
      commit: 'abc',
      command: 'npm run bench:size -- --registrations 20000 --events 20',
      startedAt: at,
      finishedAt: at,
      loadBefore: [0, 0, 0],
      loadAfter: [0, 0, 0],
    });
    for (const t of SIZE_TARGETS)
      assert.match(
        section,
        new RegExp(`^- ${t.label.replace(/[()]/g, '\\$&')} \\(.*: (met|\\*\\*not met\\*\\*):`, 'm'),
      );
    assert.match(section, /\| registrations \(asked \/ loaded\) \| 20,000 \/ 20,000:/);
    const doc = withSizeSection('# Benchmarks\n\ntext\n', section);
    assert.equal(sizeSectionOf(doc), section);
    assert.equal(withSizeSection(doc, section), doc, 'replaced in place');
    const plans = renderPlans(f.plans!, ['header']);
    for (const p of f.plans!) {
      assert.ok(p.statements.length > 0, p.figure);
      assert.ok(plans.includes(`## ${p.figure}`));
    }
    assert.match(plans, /Buffers: shared hit=/);
  });
});

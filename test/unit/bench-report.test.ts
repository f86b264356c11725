// The report generator of `npm run bench` (bench/report.ts): a broken summary, ratio or
// verdict must fail `npm test`, not show up in BENCHMARKS.md after a quarter of an hour.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOOR_NAMES, DOOR_TARGETS } from '../../bench/checkin.js';
import { EMBEDDED_NAMES, EMBEDDED_TARGETS } from '../../bench/embedded.js';
import { REGISTER_NAMES, REGISTER_TARGETS } from '../../bench/register.js';
import { SEATS_NAMES, SEATS_TARGETS } from '../../bench/seats.js';
import { parsePgTestFsync } from '../../bench/database.js';
import {
  fmtRatio,
  fmtSummary,
  meets,
  ratio,
  renderDatabases,
  renderReport,
  renderSection,
  summarise,
  verdict,
  type DatabaseFacts,
  type Run,
  type Section,
  type Target,
} from '../../bench/report.js';

const run = (rps: number, p99 = 50, extra?: Run['extra']): Run => ({
  rps,
  p50: p99 / 2,
  p99,
  max: p99 * 2,
  done: rps * 10,
  errors: 0,
  load1: 0.5,
  ...(extra ? { extra } : {}),
});

const section = (targets: Target[] = []): Section => ({
  title: 'Door',
  description: 'test runs',
  series: [
    { name: 'naive', runs: [run(1000, 40), run(1200, 60), run(900, 50)] },
    { name: 'service', runs: [run(1500, 30), run(1700, 90), run(1300, 20)] },
  ],
  comparisons: [{ subject: 'service', ceiling: 'naive' }],
  targets,
});

describe('summaries of repeated runs', () => {
  it('takes the median, min and max', () => {
    assert.deepEqual(summarise([1955, 1627, 1808]), { median: 1808, min: 1627, max: 1955, n: 3 });
    assert.equal(summarise([4, 1, 3, 2]).median, 2.5, 'an even count takes the mean of the middle two');
    assert.deepEqual(
      summarise([5, undefined, Number.NaN, 7, 6]),
      { median: 6, min: 5, max: 7, n: 3 },
      'runs without the figure are left out',
    );
    assert.equal(summarise([]).n, 0);
  });

  it('formats a figure as its median with min and max', () => {
    assert.equal(fmtSummary(summarise([1955, 1627, 1808]), '/s'), '1,808 /s (min 1,627, max 1,955)');
    assert.equal(fmtSummary(summarise([105.84, 93.2, 113.04]), 'ms', 1), '105.8 ms (min 93.2, max 113.0)');
    assert.equal(fmtSummary(summarise([42]), '/s'), '42 /s (one run)');
    assert.equal(fmtSummary(summarise([]), '/s'), '—');
  });

  it('computes a ratio from the medians, never from the best run', () => {
    const r = ratio(summarise([1500, 1700, 1300]), summarise([1000, 1200, 900]));
    assert.equal(r, 1.5);
    assert.equal(fmtRatio(r), '1.50×');
    assert.ok(Number.isNaN(ratio(summarise([1]), summarise([0]))), 'a ceiling of 0 gives no ratio');
    assert.equal(fmtRatio(Number.NaN), '—');
  });
});

describe('verdicts against the targets', () => {
  it('compares at least, at most and under', () => {
    assert.equal(meets('atLeast', 1.5, 1.5), true);
    assert.equal(meets('atLeast', 1.49, 1.5), false);
    assert.equal(meets('atMost', 500, 500), true);
    assert.equal(meets('below', 150, 150), false);
    assert.equal(meets('atLeast', Number.NaN, 0), false, 'a missing figure never meets a target');
  });

  it('says met or not met from the medians, with the runs that meet it', () => {
    const t: Target = {
      label: 'Lookups against the naive route',
      subject: 'service',
      ceiling: 'naive',
      figure: 'rps',
      compare: 'atLeast',
      value: 1.5,
      unit: '',
      digits: 2,
    };
    // Medians 1500 / 1000 = 1.50; per round 1.50, 1.42, 1.44.
    assert.equal(
      verdict(section([t]), t),
      '- Lookups against the naive route (at least 1.50×): met: 1.50× from the medians (service / naive, rps); 1 of 3 runs meet it (1.50×, 1.42×, 1.44×).',
    );
    const harder = { ...t, value: 1.6 };
    assert.match(
      verdict(section([harder]), harder),
      /: \*\*not met\*\*: 1\.50× from the medians .* 0 of 3 runs meet it/,
    );
  });

  it('judges an absolute target on the median, and counts every run', () => {
    const t: Target = {
      label: 'p99',
      subject: 'service',
      figure: 'p99',
      compare: 'below',
      value: 100,
      unit: 'ms',
      digits: 1,
    };
    assert.equal(
      verdict(section([t]), t),
      '- p99 (under 100.0 ms): met: 30.0 ms median (service, p99); 3 of 3 runs meet it (30.0 ms, 90.0 ms, 20.0 ms).',
    );
    const strict = { ...t, value: 25 };
    assert.match(
      verdict(section([strict]), strict),
      /\*\*not met\*\*: 30\.0 ms median .* 1 of 3 runs meet it/,
    );
  });

  it('refuses a target naming a series that was not run', () => {
    const t: Target = {
      label: 'x',
      subject: 'nobody',
      figure: 'rps',
      compare: 'atLeast',
      value: 1,
      unit: '',
      digits: 0,
    };
    assert.throws(() => verdict(section([t]), t), /no series named "nobody"/);
  });
});

describe('the generated file', () => {
  const header = {
    machine: {
      cpu: 'Test CPU',
      cores: 2,
      memoryBytes: 4 * 2 ** 30,
      os: 'Debian',
      node: 'v22.0.0',
      postgres: '18.1 (the shared server)',
    },
    startedAt: new Date('2026-11-25T02:00:00Z'),
    finishedAt: new Date('2026-11-25T02:12:30Z'),
    commit: 'abc123',
    loadBefore: [0.4, 0.6, 0.7],
    loadAfter: [1.9, 1.2, 0.9],
    command: 'BENCH_SECONDS=10 npm run bench',
    runs: 3,
    seconds: 10,
  };

  it('shows every run, the medians with min and max, the ratio and the machine', () => {
    const t: Target = {
      label: 'Lookups',
      subject: 'service',
      ceiling: 'naive',
      figure: 'rps',
      compare: 'atLeast',
      value: 1.5,
      unit: '',
      digits: 2,
    };
    const md = renderReport(header, [section([t])]);
    for (const s of [
      'Test CPU, 2 cores',
      '4.0 GiB',
      'v22.0.0',
      '18.1 (the shared server)',
      'abc123',
      '2026-11-25T02:00:00Z',
      '12.5 min',
      '0.40 / 0.60 / 0.70',
      '1.90 / 1.20 / 0.90',
      '`BENCH_SECONDS=10 npm run bench`',
    ]) {
      assert.ok(md.includes(s), `the header shows ${s}`);
    }
    assert.ok(md.includes('| service | 1,500 (min 1,300, max 1,700) |'), 'the median row');
    assert.ok(
      md.includes(
        '- service: 1,500 /s (min 1,300, max 1,700) against naive: 1,000 /s (min 900, max 1,200): **1.50×**',
      ),
    );
    // Six runs, one row each, the slow ones included.
    assert.equal(md.split('\n').filter((l) => /^\| (naive|service) \| \d \|/.test(l)).length, 6);
    assert.ok(md.includes('| service | 2 | 1,700 | 45.0 | 90.0 | 180 |'));
    assert.doesNotMatch(md, /NaN|undefined|Infinity/);
  });

  it('shows a missing per-run figure as the section says, never as NaN', () => {
    const s = section();
    s.columns = [{ key: 'drain', label: 'mails sent after s', digits: 0, missing: 'not within 300 s' }];
    s.series[1]!.runs = [
      run(1500, 30, { drain: 20 }),
      run(1700, 90, { drain: undefined }),
      run(1300, 20, { drain: 30 }),
    ];
    const md = renderSection(s);
    assert.ok(md.includes('not within 300 s'));
    assert.ok(md.includes('25 (min 20, max 30)'), 'the summary is over the runs that have it');
    assert.doesNotMatch(md, /NaN|undefined/);
  });

  it('says when the machine was busy before the run', () => {
    assert.match(
      renderReport({ ...header, loadBefore: [3.2, 2, 1] }, []),
      /other work was running, and the figures are lower for it/,
    );
    assert.doesNotMatch(renderReport(header, []), /other work was running/);
  });

  it('judges the door as docs/decisions/15-the-door.md and 22-figures-and-evidence.md ask: lookups ≥ 1.5× one SELECT, admits ≥ 1.2× one UPDATE, p99 at or below; no request stalled by a first scan; RSS under 300 MB', () => {
    const wanted = DOOR_TARGETS.map((t) => [t.subject, t.ceiling, t.figure, t.compare, t.value]);
    assert.deepEqual(wanted, [
      [DOOR_NAMES.lookups, DOOR_NAMES.baselineLookups, 'rps', 'atLeast', 1.5],
      [DOOR_NAMES.admits, DOOR_NAMES.baselineAdmits, 'rps', 'atLeast', 1.2],
      [DOOR_NAMES.lookups, DOOR_NAMES.baselineLookups, 'p99', 'atMost', 1],
      [DOOR_NAMES.admits, DOOR_NAMES.baselineAdmits, 'p99', 'atMost', 1],
      [DOOR_NAMES.firstScan, undefined, 'max', 'below', 100],
      [DOOR_NAMES.rss, undefined, 'rssMB', 'below', 300],
    ]);
    assert.match(DOOR_NAMES.firstScan, /first scan of a 150,000-person event/);
    // Lookups 1.6× the baseline with a p99 above its: one met, one not; the first scan's worst at 80 ms.
    const s: Section = {
      title: 'Door check-in',
      description: 'd',
      series: Object.values(DOOR_NAMES).map((name) => ({
        name,
        runs: [
          name === DOOR_NAMES.lookups
            ? run(1600, 60)
            : name === DOOR_NAMES.firstScan
              ? run(500, 40)
              : run(1000, 50),
        ],
      })),
      comparisons: [],
      targets: DOOR_TARGETS,
    };
    const md = renderSection(s);
    assert.ok(
      md.includes(
        '- Lookups (the service from its in-memory roster) against one prepared SELECT (at least 1.50×): met: 1.60× from the medians',
      ),
      md,
    );
    assert.ok(
      md.includes(
        "- Lookups' p99 (the service from its in-memory roster) against one prepared SELECT's (at most 1.00×): **not met**: 1.20× from the medians",
      ),
      md,
    );
    assert.ok(
      md.includes(
        '- Admits against one prepared UPDATE (at least 1.20×): **not met**: 1.00× from the medians',
      ),
      md,
    );
    assert.ok(
      md.includes(
        '- The worst other request while the first scan of a 150,000-person event builds its roster (under 100 ms): met: 80 ms median',
      ),
      md,
    );
  });

  it('judges registrations against the one-statement baseline as docs/decisions/22-figures-and-evidence.md asks: hot ≥ 2×, the drop sold out ≥ 1.5× sooner, spread ≥ 1× with p99 at or below', () => {
    const against = REGISTER_TARGETS.filter((t) => t.ceiling).map((t) => [
      t.subject,
      t.ceiling,
      t.figure,
      t.compare,
      t.value,
    ]);
    assert.deepEqual(against, [
      [REGISTER_NAMES.hot, REGISTER_NAMES.oneHot, 'rps', 'atLeast', 2],
      [REGISTER_NAMES.drop, REGISTER_NAMES.oneDrop, 'sellRate', 'atLeast', 1.5],
      [REGISTER_NAMES.spread, REGISTER_NAMES.oneSpread, 'rps', 'atLeast', 1],
      [REGISTER_NAMES.spread, REGISTER_NAMES.oneSpread, 'p99', 'atMost', 1],
    ]);
  });

  it('judges seat statuses as the issue asks: p99 under 100 ms for 50,000 seats, from the medians', () => {
    assert.deepEqual(
      SEATS_TARGETS.map((t) => [t.subject, t.ceiling, t.figure, t.compare, t.value]),
      [[SEATS_NAMES.statuses, undefined, 'p99', 'below', 100]],
    );
    assert.match(SEATS_NAMES.statuses, /50,000 seats/);
    // A read of one request has a time and a size but no rate.
    const one = (ms: number, bytes: number): Run => ({
      rps: Number.NaN,
      p50: ms,
      p99: ms,
      max: ms,
      done: 1,
      errors: 0,
      load1: 0.5,
      extra: { bytes },
    });
    const drop = (sold: number, soldTwice: number): Run =>
      run(500, 400, { sold, confirmed: sold, soldTwice, soldOutS: 10, sellRate: sold / 10 });
    const s = (p99s: number[]): Section => ({
      title: 'Reserved seating',
      description: 'd',
      series: [
        { name: SEATS_NAMES.statuses, runs: p99s.map((p) => run(300, p, { bytes: 50_190 })) },
        { name: SEATS_NAMES.baselineStatuses, runs: p99s.map(() => run(600, 40, { bytes: 50_104 })) },
        { name: SEATS_NAMES.fullList, runs: [one(350, 8_876_368), one(300, 8_876_368), one(320, 8_876_368)] },
        { name: SEATS_NAMES.drop, runs: [drop(5000, 0), drop(4990, 0), drop(5000, 0)] },
      ],
      columns: [
        { key: 'bytes', label: 'answer bytes as sent', digits: 0 },
        { key: 'sold', label: 'seats sold', digits: 0 },
        { key: 'soldTwice', label: 'seats sold twice', digits: 0 },
      ],
      comparisons: [{ subject: SEATS_NAMES.statuses, ceiling: SEATS_NAMES.baselineStatuses, figure: 'p99' }],
      targets: SEATS_TARGETS,
    });
    const met = renderSection(s([80, 120, 90]));
    assert.ok(
      met.includes(
        `- Every seat's status of a 50,000-seat event, p99 with 32 concurrent readers (under 100.0 ms): met: 90.0 ms median (${SEATS_NAMES.statuses}, p99); 2 of 3 runs meet it (80.0 ms, 120.0 ms, 90.0 ms).`,
      ),
      met,
    );
    const unmet = renderSection(s([150, 120, 90]));
    assert.ok(unmet.includes('(under 100.0 ms): **not met**: 120.0 ms median'), unmet);
    assert.ok(unmet.includes('**3.00×** (p99, from the medians)'), unmet);
    // The one-request read: no rate, its time and size as medians with min and max.
    assert.ok(
      met.includes(
        `| ${SEATS_NAMES.fullList} | — | 320.0 (min 300.0, max 350.0) | 320.0 (min 300.0, max 350.0) | 320 (min 300, max 350) | 0 | 8,876,368 (min 8,876,368, max 8,876,368) | — | — |`,
      ),
      met,
    );
    assert.ok(
      met.includes(
        `| ${SEATS_NAMES.drop} | 2 | 500 | 200.0 | 400.0 | 800 | 5,000 | 0 | — | 4,990 | 0 | 0.5 |`,
      ),
      met,
    );
    assert.doesNotMatch(met, /NaN|undefined|Infinity/);
  });

  it('names the baseline in every figure and says where the service answers from memory', () => {
    for (const names of [REGISTER_NAMES, DOOR_NAMES, SEATS_NAMES]) {
      for (const name of Object.values(names))
        assert.match(name, /^(service|baseline, [^:]+|bare Fastify route)/, name);
    }
    for (const t of [...REGISTER_TARGETS, ...DOOR_TARGETS]) {
      if (!t.ceiling) continue;
      assert.ok(t.ceiling.startsWith('baseline, '), `${t.label}: against a named baseline`);
      const fromMemory = t.subject === DOOR_NAMES.lookups || t.subject === REGISTER_NAMES.drop;
      if (fromMemory) assert.match(t.label, /memory/, `${t.label} says the service answers from memory`);
    }
    assert.match(DOOR_NAMES.lookups, /in-memory roster/);
    assert.match(REGISTER_NAMES.drop, /sold-out memory/);
  });

  it("writes a comparison's note beside its figure", () => {
    const s = section();
    s.comparisons = [{ subject: 'service', ceiling: 'naive', note: 'The service answers from memory' }];
    assert.ok(
      renderSection(s).includes('**1.50×** (rps, from the medians). The service answers from memory.'),
    );
  });

  it('has targets in the bench code that name configurations the benches run', () => {
    const cases: [Target[], Record<string, string>][] = [
      [DOOR_TARGETS, DOOR_NAMES],
      [REGISTER_TARGETS, REGISTER_NAMES],
      [EMBEDDED_TARGETS, EMBEDDED_NAMES],
      [SEATS_TARGETS, SEATS_NAMES],
    ];
    for (const [targets, names] of cases) {
      const all = Object.values(names);
      for (const t of targets) {
        assert.ok(all.includes(t.subject), `${t.label}: ${t.subject}`);
        if (t.ceiling) assert.ok(all.includes(t.ceiling), `${t.label}: ${t.ceiling}`);
      }
      // And each renders from figures of the right shape.
      const s: Section = {
        title: 't',
        description: 'd',
        series: all.map((name) => ({
          name,
          runs: [run(1000, 50, { rss: 180, startup: 2000 }), run(1100, 60, { rss: 190, startup: 2100 })],
        })),
        comparisons: [],
        targets,
      };
      assert.doesNotMatch(renderSection(s), /NaN|undefined/);
    }
  });
});

describe("the databases' settings and flush time", () => {
  // pg_test_fsync 15's output, cut short.
  const output = `5 seconds per test
O_DIRECT supported on this platform for open_datasync and open_sync.

Compare file sync methods using one 8kB write:
(in wal_sync_method preference order, except fdatasync is Linux's default)
        open_datasync                       812.345 ops/sec    1231 usecs/op
        fdatasync                           901.001 ops/sec    1110 usecs/op
        fsync                               455.500 ops/sec    2195 usecs/op
        fsync_writethrough                              n/a
        open_sync                           430.000 ops/sec    2326 usecs/op

Compare file sync methods using two 8kB writes:
(in wal_sync_method preference order, except fdatasync is Linux's default)
        open_datasync                       400.000 ops/sec    2500 usecs/op
`;

  it("reads pg_test_fsync's one-write figures and leaves the rest", () => {
    assert.deepEqual(parsePgTestFsync(output), [
      { method: 'open_datasync', perSecond: 812.345, usPerOp: 1231 },
      { method: 'fdatasync', perSecond: 901.001, usPerOp: 1110 },
      { method: 'fsync', perSecond: 455.5, usPerOp: 2195 },
      { method: 'open_sync', perSecond: 430, usPerOp: 2326 },
    ]);
    assert.deepEqual(parsePgTestFsync('pg_test_fsync: could not open output file'), []);
  });

  it('shows each setting, the flush time and where it was measured, one column per database', () => {
    const settings = {
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      wal_sync_method: 'fdatasync',
      shared_buffers: '128MB',
    };
    const shared: DatabaseFacts = {
      name: 'shared server',
      version: '15.20',
      settings,
      dataDirectory: '/var/lib/postgresql/15/main',
      flush: {
        directory: '/tmp',
        writes: 900,
        perSecond: 900,
        medianMs: 1.05,
        p99Ms: 3.2,
        maxMs: 7.9,
        pgTestFsync: { command: 'pg_test_fsync -s 1', methods: parsePgTestFsync(output) },
      },
    };
    const embedded: DatabaseFacts = {
      name: 'embedded (first run)',
      version: '17.2',
      settings: { ...settings, shared_buffers: '16MB' },
      flushMissing: 'not measured: the data directory could not be read',
    };
    const md = renderDatabases([shared, embedded]).join('\n');
    for (const s of [
      '| setting | shared server | embedded (first run) |',
      '| `fsync` | on | on |',
      '| `wal_sync_method` | fdatasync | fdatasync |',
      '| `shared_buffers` | 128MB | 16MB |',
      '1.05 / 3.20 / 7.9 ms (900 /s, 900 writes)',
      'not measured: the data directory could not be read',
      '`/tmp` (the filesystem of `/var/lib/postgresql/15/main`)',
      '| `pg_test_fsync -s 1`, one 8 kB write, fdatasync | 1,110 µs/op (901 /s) | — |',
    ]) {
      assert.ok(md.includes(s), `${s}\n${md}`);
    }
    assert.doesNotMatch(md, /NaN|undefined/);
    assert.deepEqual(renderDatabases([]), []);
  });

  it('puts them in the report header', () => {
    const header = {
      machine: {
        cpu: 'Test CPU',
        cores: 2,
        memoryBytes: 4 * 2 ** 30,
        os: 'Debian',
        node: 'v22.0.0',
        postgres: '15.20 (the shared server)',
      },
      databases: [
        { name: 'shared server', version: '15.20', settings: { fsync: 'on' }, flushMissing: 'not measured' },
      ],
      startedAt: new Date('2026-11-25T02:00:00Z'),
      finishedAt: new Date('2026-11-25T02:12:30Z'),
      commit: 'abc123',
      loadBefore: [0.4, 0.6, 0.7],
      loadAfter: [1.9, 1.2, 0.9],
      command: 'npm run bench',
      runs: 3,
      seconds: 10,
    };
    assert.ok(renderReport(header, []).includes('| `fsync` | on |'));
  });
});

// The pure part of `npm run bench`: summaries of repeated runs (median, min, max), ratios
// between a subject and its ceiling, verdicts against targets, and the Markdown of
// BENCHMARKS.md. Every figure in the file comes from the data handed in here; nothing is
// written by hand. Unit-tested in test/unit/bench-report.test.ts.

/** One measured run of one configuration. */
export interface Run {
  /** Answers counted as correct per second over the measured window. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests answered. */
  done: number;
  errors: number;
  /** The 1-minute load average when the run started. */
  load1: number;
  /** Further per-run figures a section declares in its columns; undefined when not measured. */
  extra?: Record<string, number | undefined>;
}

/** One configuration measured several times in one `npm run bench`. */
export interface Series {
  name: string;
  runs: Run[];
}

export interface Column {
  key: string;
  label: string;
  digits: number;
  /** Shown in the per-run table when a run has no value. */
  missing?: string;
}

export type Compare = 'atLeast' | 'atMost' | 'below';

/**
 * A target stated in the bench code. With `ceiling`, the figure is the subject's divided by the
 * ceiling's (the headline from the medians, each run from the runs of the same round).
 */
export interface Target {
  label: string;
  subject: string;
  ceiling?: string;
  figure: string;
  compare: Compare;
  value: number;
  unit: string;
  digits: number;
}

/** "Subject against ceiling": both summaries and the ratio of their medians. */
export interface Comparison {
  subject: string;
  ceiling: string;
  figure?: string;
  /** The figure's unit and decimals (default: /s and 0 for rps, ms and 1 otherwise). */
  unit?: string;
  digits?: number;
  /** Said beside the figure: what either side answers without the database, or what the ceiling is. */
  note?: string;
}

export interface Section {
  title: string;
  /** What was run, generated from the run's settings. */
  description: string;
  series: Series[];
  /** Extra per-run figures, shown in both tables. */
  columns?: Column[];
  comparisons: Comparison[];
  targets: Target[];
  /** Further lines, already generated from this run's figures. */
  notes?: string[];
}

/** pg_test_fsync's "one 8kB write" figures, or why it was not run. */
export type PgTestFsync =
  | { command: string; methods: { method: string; perSecond: number; usPerOp: number }[] }
  | { skipped: string };

/** Rewrites of one 8 kB block, each followed by fdatasync, on the data directory's filesystem. */
export interface Flush {
  directory: string;
  writes: number;
  perSecond: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  pgTestFsync?: PgTestFsync;
}

/** One database the benches ran on: its settings and how fast its disk flushes. */
export interface DatabaseFacts {
  name: string;
  version: string;
  settings: Record<string, string>;
  dataDirectory?: string;
  flush?: Flush;
  flushMissing?: string;
}

export interface Header {
  machine: { cpu: string; cores: number; memoryBytes: number; os: string; node: string; postgres: string };
  databases?: DatabaseFacts[];
  startedAt: Date;
  finishedAt: Date;
  commit: string;
  loadBefore: number[];
  loadAfter: number[];
  command: string;
  runs: number;
  seconds: number;
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Median, min and max of the finite values (the median of an even count is the mean of the middle two). */
export function summarise(values: readonly (number | undefined)[]): Summary {
  const v = values
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x))
    .sort((a, b) => a - b);
  if (v.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  return { median, min: v[0]!, max: v[v.length - 1]!, n: v.length };
}

/** 1808.4 → "1,808"; digits after the point as asked. */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '—';
  return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1,808 /s (min 1,627, max 1,955)"; a single run says so. */
export function fmtSummary(s: Summary, unit: string, digits = 0): string {
  const u = unit ? ` ${unit}` : '';
  if (s.n === 0) return '—';
  if (s.n === 1) return `${num(s.median, digits)}${u} (one run)`;
  return `${num(s.median, digits)}${u} (min ${num(s.min, digits)}, max ${num(s.max, digits)})`;
}

/** The subject's median over the ceiling's median; NaN when the ceiling's is 0 or missing. */
export function ratio(subject: Summary, ceiling: Summary): number {
  if (!(ceiling.median > 0) || !Number.isFinite(subject.median)) return Number.NaN;
  return subject.median / ceiling.median;
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${num(r, 2)}×` : '—';
}

export function meets(compare: Compare, value: number, target: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (compare === 'atLeast') return value >= target;
  if (compare === 'atMost') return value <= target;
  return value < target;
}

const WORDS: Record<Compare, string> = { atLeast: 'at least', atMost: 'at most', below: 'under' };

export function figureOf(run: Run, figure: string): number | undefined {
  if (
    figure === 'rps' ||
    figure === 'p50' ||
    figure === 'p99' ||
    figure === 'max' ||
    figure === 'errors' ||
    figure === 'done' ||
    figure === 'load1'
  )
    return run[figure];
  return run.extra?.[figure];
}

function seriesNamed(section: Section, name: string): Series {
  const s = section.series.find((x) => x.name === name);
  if (!s) throw new Error(`no series named "${name}" in "${section.title}"`);
  return s;
}

/** The headline figure (from medians) and each round's figure for a target. */
export function evaluate(section: Section, t: Target): { headline: number; perRun: number[] } {
  const subject = seriesNamed(section, t.subject);
  const sv = subject.runs.map((r) => figureOf(r, t.figure));
  if (!t.ceiling) return { headline: summarise(sv).median, perRun: sv.map((x) => x ?? Number.NaN) };
  const ceiling = seriesNamed(section, t.ceiling);
  const cv = ceiling.runs.map((r) => figureOf(r, t.figure));
  const headline = ratio(summarise(sv), summarise(cv));
  const perRun = sv.map((x, i) => (x !== undefined && (cv[i] ?? 0) > 0 ? x / cv[i]! : Number.NaN));
  return { headline, perRun };
}

/** "- Lookups at least 1.50× the naive route: **not met**: 0.84× (from medians); 0 of 3 runs meet it." */
export function verdict(section: Section, t: Target): string {
  const { headline, perRun } = evaluate(section, t);
  const met = meets(t.compare, headline, t.value);
  const fmt = (v: number) => (t.ceiling ? fmtRatio(v) : `${num(v, t.digits)}${t.unit ? ` ${t.unit}` : ''}`);
  const goal = `${WORDS[t.compare]} ${fmt(t.value)}`;
  const rounds = perRun.filter((v) => meets(t.compare, v, t.value)).length;
  const of = t.ceiling ? `${t.subject} / ${t.ceiling}, ${t.figure}` : `${t.subject}, ${t.figure}`;
  return `- ${t.label} (${goal}): ${met ? 'met' : '**not met**'}: ${fmt(headline)}${t.ceiling ? ' from the medians' : ' median'} (${of}); ${rounds} of ${perRun.length} runs meet it (${perRun.map(fmt).join(', ')}).`;
}

function summaryTable(section: Section): string[] {
  const cols = section.columns ?? [];
  const head = [
    'configuration',
    'requests/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'errors (all runs)',
    ...cols.map((c) => c.label),
  ];
  const rows = section.series.map((s) => {
    const of = (f: string) => summarise(s.runs.map((r) => figureOf(r, f)));
    return [
      s.name,
      fmtSummary(of('rps'), '', 0),
      fmtSummary(of('p50'), '', 1),
      fmtSummary(of('p99'), '', 1),
      fmtSummary(of('max'), '', 0),
      num(s.runs.reduce((n, r) => n + r.errors, 0)),
      ...cols.map((c) => fmtSummary(of(c.key), '', c.digits)),
    ];
  });
  return table(head, rows, 1);
}

function runTable(section: Section): string[] {
  const cols = section.columns ?? [];
  const head = [
    'configuration',
    'run',
    'requests/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'answered',
    'errors',
    ...cols.map((c) => c.label),
    'load avg at start',
  ];
  const rows: string[][] = [];
  for (const s of section.series) {
    s.runs.forEach((r, i) => {
      rows.push([
        s.name,
        String(i + 1),
        num(r.rps),
        num(r.p50, 1),
        num(r.p99, 1),
        num(r.max),
        num(r.done),
        num(r.errors),
        ...cols.map((c) => {
          const v = r.extra?.[c.key];
          return v === undefined || !Number.isFinite(v) ? (c.missing ?? '—') : num(v, c.digits);
        }),
        num(r.load1, 1),
      ]);
    });
  }
  return table(head, rows, 2);
}

function table(head: string[], rows: string[][], textColumns: number): string[] {
  const align = head.map((_, i) => (i < textColumns ? '---' : '---:'));
  return [`| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

export function renderSection(section: Section): string {
  const lines = [`## ${section.title}`, '', section.description, ''];
  lines.push('Median of the runs, with min and max:', '', ...summaryTable(section), '');
  if (section.comparisons.length > 0) {
    for (const c of section.comparisons) {
      const figure = c.figure ?? 'rps';
      const unit = c.unit ?? (figure === 'rps' ? '/s' : 'ms');
      const digits = c.digits ?? (figure === 'rps' ? 0 : 1);
      const s = summarise(seriesNamed(section, c.subject).runs.map((r) => figureOf(r, figure)));
      const k = summarise(seriesNamed(section, c.ceiling).runs.map((r) => figureOf(r, figure)));
      lines.push(
        `- ${c.subject}: ${fmtSummary(s, unit, digits)} against ${c.ceiling}: ${fmtSummary(k, unit, digits)}: **${fmtRatio(ratio(s, k))}** (${figure}, from the medians)${c.note ? `. ${c.note}` : ''}.`,
      );
    }
    lines.push('');
  }
  if (section.targets.length > 0) {
    lines.push(
      "Targets (stated in the bench code; the verdict is on the medians; for a ratio, each run is also set against the ceiling's run of the same round):",
      '',
    );
    for (const t of section.targets) lines.push(verdict(section, t));
    lines.push('');
  }
  if (section.notes && section.notes.length > 0) lines.push(...section.notes.map((n) => `- ${n}`), '');
  lines.push('Every run:', '', ...runTable(section));
  return lines.join('\n');
}

/** The databases' settings and flush times, one column per database. */
export function renderDatabases(databases: DatabaseFacts[]): string[] {
  if (databases.length === 0) return [];
  const names = [...new Set(databases.flatMap((d) => Object.keys(d.settings)))];
  const rows: string[][] = [
    ['version', ...databases.map((d) => d.version)],
    ...names.map((n) => [`\`${n}\``, ...databases.map((d) => d.settings[n] ?? '—')]),
  ];
  rows.push([
    'flush: an 8 kB block of a 16 MB file rewritten + fdatasync, median / p99 / max',
    ...databases.map((d) =>
      d.flush
        ? `${num(d.flush.medianMs, 2)} / ${num(d.flush.p99Ms, 2)} / ${num(d.flush.maxMs, 1)} ms (${num(d.flush.perSecond)} /s, ${num(d.flush.writes)} writes)`
        : (d.flushMissing ?? 'not measured'),
    ),
  ]);
  rows.push([
    'measured in',
    ...databases.map((d) =>
      d.flush ? `\`${d.flush.directory}\` (the filesystem of \`${d.dataDirectory}\`)` : '—',
    ),
  ]);
  const methods = [
    ...new Set(
      databases.flatMap((d) =>
        d.flush?.pgTestFsync && 'methods' in d.flush.pgTestFsync
          ? d.flush.pgTestFsync.methods.map((m) => m.method)
          : [],
      ),
    ),
  ];
  const command = databases
    .map((d) => d.flush?.pgTestFsync)
    .find((p): p is Extract<PgTestFsync, { command: string }> => !!p && 'command' in p)?.command;
  for (const m of methods) {
    rows.push([
      `\`${command}\`, one 8 kB write, ${m}`,
      ...databases.map((d) => {
        const p = d.flush?.pgTestFsync;
        const x = p && 'methods' in p ? p.methods.find((y) => y.method === m) : undefined;
        return x ? `${num(x.usPerOp)} µs/op (${num(x.perSecond)} /s)` : '—';
      }),
    ]);
  }
  const skipped = databases
    .map((d) => d.flush?.pgTestFsync)
    .find((p): p is Extract<PgTestFsync, { skipped: string }> => !!p && 'skipped' in p);
  if (methods.length === 0 && skipped)
    rows.push([
      'pg_test_fsync',
      ...databases.map((d) =>
        d.flush?.pgTestFsync && 'skipped' in d.flush.pgTestFsync ? d.flush.pgTestFsync.skipped : '—',
      ),
    ]);
  return [
    "The databases, as read from each server during the run (the shared server before the benchmarks; the embedded one after its first run's load). A commit waits for its WAL to be flushed, so the flush time bounds what one connection commits per second; commits that wait together share a flush:",
    '',
    ...table(['setting', ...databases.map((d) => d.name)], rows, databases.length + 1),
  ];
}

const minutes = (ms: number) => `${num(ms / 60_000, 1)} min`;

export function renderReport(header: Header, sections: Section[]): string {
  const m = header.machine;
  const la = (l: number[]) => l.map((x) => num(x, 2)).join(' / ');
  const lines = [
    '# Benchmarks',
    '',
    `Written in one run by \`${header.command}\`; nothing in this file is written by hand. Each configuration ran ${header.runs} times (or as many as its section says) for ${num(header.seconds)} s each, rounds interleaved (a ceiling and the configurations compared with it take turns), on one machine with the load generator on it. Each figure is the median of the runs with their min and max; a ratio is the ratio of the medians. How to read them: docs/architecture/performance.md.`,
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${m.cpu}, ${m.cores} cores |`,
    `| memory | ${num(m.memoryBytes / 2 ** 30, 1)} GiB |`,
    `| OS | ${m.os} |`,
    `| Node | ${m.node} |`,
    `| PostgreSQL | ${m.postgres} |`,
    `| commit | ${header.commit} |`,
    `| started | ${header.startedAt.toISOString().slice(0, 19)}Z |`,
    `| finished | ${header.finishedAt.toISOString().slice(0, 19)}Z (${minutes(header.finishedAt.getTime() - header.startedAt.getTime())}) |`,
    `| load average (1 / 5 / 15 min) before | ${la(header.loadBefore)} |`,
    `| load average (1 / 5 / 15 min) after | ${la(header.loadAfter)} |`,
    '',
    header.loadBefore[0]! >= m.cores / 2
      ? `The 1-minute load average before the run was ${num(header.loadBefore[0]!, 2)} on ${m.cores} cores: other work was running, and the figures are lower for it.`
      : `The 1-minute load average before the run was ${num(header.loadBefore[0]!, 2)} on ${m.cores} cores.`,
  ];
  if (header.databases && header.databases.length > 0) lines.push('', ...renderDatabases(header.databases));
  for (const s of sections) lines.push('', renderSection(s));
  return `${lines.join('\n')}\n`;
}

// What `npm run bench:size` measures, over HTTP, on the service and on its baseline
// (bench/size-baseline-server.ts): a page of 100 registrations of the biggest event (the first
// page, and a deep one by cursor), its analytics, the first page of the audit log, the
// dashboard's lists (the events list, the registrations page) and a CSV export of the event.
// Each is asked by `concurrency` clients for a fixed time (the export by one client, export
// after export); every answer is checked, and one that is not right counts as an error.
import type { Pool } from 'undici';
import { httpPool, load, rounds, type Step } from './lib.js';
import type { Column, Comparison, Series, Target } from './report.js';

export const P99_TARGET_MS = 200;
export const EXPORT_TARGET_ROWS_PER_S = 20_000;

/** Where the questions go and what they are about. */
export interface SizeSubjects {
  service: { url: string; key: string; cookie: string };
  baseline: { url: string };
  /** The biggest event: its id on each side, its registrations, a cursor 90 % of the way in. */
  big: { id: string; refId: number; registrations: number; cursor: string; refCursor: string };
  /** The baseline's number of the big event's account (the service's is the key's). */
  refAccount: number;
}

interface Ask {
  path: string;
  headers: Record<string, string>;
  /** Whether the answer is right (status 200 and the rows asked). */
  ok(text: string): boolean;
}

export interface SizeFigure {
  key: string;
  label: string;
  service: (s: SizeSubjects) => Ask;
  baseline: (s: SizeSubjects) => Ask;
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown> & { data?: unknown[] };
const hundred = (text: string) => json(text).data?.length === 100;
const api = (s: SizeSubjects) => ({ 'x-api-key': s.service.key });
const page = (s: SizeSubjects) => ({ cookie: s.service.cookie });
const html = (text: string) => text.includes('</html>');

/** The figures, each with the service's question and the baseline's. */
export const SIZE_FIGURES: SizeFigure[] = [
  {
    key: 'first',
    label: 'page of 100 registrations, first page',
    service: (s) => ({
      path: `/api/v1/events/${s.big.id}/registrations?limit=100`,
      headers: api(s),
      ok: hundred,
    }),
    baseline: (s) => ({ path: `/events/${s.big.refId}/registrations`, headers: {}, ok: hundred }),
  },
  {
    key: 'deep',
    label: 'page of 100 registrations, 90 % deep by cursor',
    service: (s) => ({
      path: `/api/v1/events/${s.big.id}/registrations?limit=100&startingAfter=${s.big.cursor}`,
      headers: api(s),
      ok: hundred,
    }),
    baseline: (s) => ({
      path: `/events/${s.big.refId}/registrations?after=${s.big.refCursor}`,
      headers: {},
      ok: hundred,
    }),
  },
  {
    key: 'analytics',
    label: 'analytics of the event',
    service: (s) => ({
      path: `/api/v1/events/${s.big.id}/analytics`,
      headers: api(s),
      ok: (t) => json(t).totalRegistrations === s.big.registrations,
    }),
    baseline: (s) => ({
      path: `/events/${s.big.refId}/analytics`,
      headers: {},
      ok: (t) => json(t).totalRegistrations === s.big.registrations,
    }),
  },
  {
    key: 'audit',
    label: 'audit log, first page of 100',
    service: (s) => ({ path: '/api/v1/audit-log?limit=100', headers: api(s), ok: hundred }),
    baseline: (s) => ({ path: `/accounts/${s.refAccount}/audit`, headers: {}, ok: hundred }),
  },
  {
    key: 'events',
    label: "dashboard: the account's events list",
    service: (s) => ({ path: '/dashboard/events', headers: page(s), ok: html }),
    baseline: (s) => ({ path: `/accounts/${s.refAccount}/events`, headers: {}, ok: html }),
  },
  {
    key: 'recent',
    label: "dashboard: the event's registrations page",
    service: (s) => ({ path: `/dashboard/events/${s.big.id}/registrations`, headers: page(s), ok: html }),
    baseline: (s) => ({ path: `/events/${s.big.refId}/recent`, headers: {}, ok: html }),
  },
];

export const EXPORT_LABEL = 'CSV export of the event';
export const serviceName = (label: string) => `service: ${label}`;
export const baselineName = (label: string) => `baseline: ${label}`;

/** The targets of product decisions §27, on the service's medians. */
export const SIZE_TARGETS: Target[] = [
  ...SIZE_FIGURES.map((f) => ({
    label: `p99, ${f.label}`,
    subject: serviceName(f.label),
    figure: 'p99',
    compare: 'below' as const,
    value: P99_TARGET_MS,
    unit: 'ms',
    digits: 1,
  })),
  {
    label: `${EXPORT_LABEL}, rows per second to the last byte`,
    subject: serviceName(EXPORT_LABEL),
    figure: 'rowsPerSecond',
    compare: 'atLeast',
    value: EXPORT_TARGET_ROWS_PER_S,
    unit: 'rows/s',
    digits: 0,
  },
];

export const SIZE_COLUMNS: Column[] = [
  { key: 'rowsPerSecond', label: 'export rows/s', digits: 0, missing: '' },
];

export const SIZE_COMPARISONS: Comparison[] = [
  ...SIZE_FIGURES.map((f) => ({
    subject: serviceName(f.label),
    ceiling: baselineName(f.label),
    figure: 'p99',
  })),
  {
    subject: serviceName(EXPORT_LABEL),
    ceiling: baselineName(EXPORT_LABEL),
    figure: 'rowsPerSecond',
    unit: 'rows/s',
    digits: 0,
  },
];

async function ask(pool: Pool, a: Ask): Promise<{ ok: boolean; text: string; status: number }> {
  const r = await pool.request({ method: 'GET', path: a.path, headers: a.headers });
  const text = await r.body.text();
  let ok = false;
  try {
    ok = r.statusCode === 200 && a.ok(text);
  } catch {
    ok = false;
  }
  return { ok, text, status: r.statusCode };
}

/** Downloads an export to its last byte: its data rows (lines after the header) and status. */
export async function download(pool: Pool, path: string, headers: Record<string, string>) {
  const r = await pool.request({ method: 'GET', path, headers });
  let lines = 0;
  for await (const chunk of r.body as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { status: r.statusCode, rows: Math.max(0, lines - 1) };
}

export const exportPath = {
  service: (s: SizeSubjects) => `/api/v1/events/${s.big.id}/registrations/export`,
  baseline: (s: SizeSubjects) => `/events/${s.big.refId}/export`,
};

/** Every figure on both sides, `runs` times in interleaved rounds, after a warm-up of each. */
export async function measureSize(
  s: SizeSubjects,
  o: { concurrency: number; seconds: number; runs: number; warmupSeconds: number },
): Promise<Series[]> {
  const svc = httpPool(s.service.url, o.concurrency);
  const ref = httpPool(s.baseline.url, o.concurrency);
  const steps: Step[] = [];
  for (const f of SIZE_FIGURES) {
    for (const [name, pool, a] of [
      [serviceName(f.label), svc, f.service(s)],
      [baselineName(f.label), ref, f.baseline(s)],
    ] as const) {
      const go = (seconds: number) => load(o.concurrency, seconds, async () => (await ask(pool, a)).ok);
      if (o.warmupSeconds > 0) await go(o.warmupSeconds);
      steps.push({ name, run: () => go(o.seconds) });
    }
  }
  for (const [name, pool, path, headers] of [
    [serviceName(EXPORT_LABEL), svc, exportPath.service(s), api(s)],
    [baselineName(EXPORT_LABEL), ref, exportPath.baseline(s), {}],
  ] as const) {
    const one = async () => {
      const r = await download(pool, path, headers);
      return r.status === 200 && r.rows === s.big.registrations;
    };
    steps.push({
      name,
      run: async () => {
        // One client, export after export, for the run's time (at least one whole export).
        const r = await load(1, o.seconds, one);
        return { ...r, extra: { rowsPerSecond: r.rps * s.big.registrations } };
      },
    });
  }
  try {
    return await rounds(o.runs, steps);
  } finally {
    await svc.close();
    await ref.close();
  }
}

/** Each question asked once on each side before the measuring: whether every answer is right. */
export async function checkAnswers(s: SizeSubjects): Promise<{ lines: string[]; right: boolean }> {
  const svc = httpPool(s.service.url, 2);
  const ref = httpPool(s.baseline.url, 2);
  const lines: string[] = [];
  let right = true;
  try {
    for (const f of SIZE_FIGURES) {
      for (const [side, pool, a] of [
        ['service', svc, f.service(s)],
        ['baseline', ref, f.baseline(s)],
      ] as const) {
        const r = await ask(pool, a);
        right &&= r.ok;
        if (!r.ok) lines.push(`${side}, ${f.label}: **wrong answer** (${r.status}: ${r.text.slice(0, 200)})`);
      }
    }
    for (const [side, pool, path, headers] of [
      ['service', svc, exportPath.service(s), api(s)],
      ['baseline', ref, exportPath.baseline(s), {}],
    ] as const) {
      const r = await download(pool, path, headers);
      const ok = r.status === 200 && r.rows === s.big.registrations;
      right &&= ok;
      lines.push(
        `${side}, ${EXPORT_LABEL}: ${r.rows.toLocaleString('en')} rows of the event's ${s.big.registrations.toLocaleString('en')}${ok ? '' : ` (**wrong**, status ${r.status})`}`,
      );
    }
  } finally {
    await svc.close();
    await ref.close();
  }
  return { lines, right };
}

// `npm run reliability`: every reliability figure in one run on one machine, and the whole
// of RELIABILITY.md written from them (no figure in that file is written by hand):
// - the seed-7 run of 300 operations, three times (the figures must match);
// - a 5,000-operation run with one fresh seed, three times;
// - racing mode (RECONCILE_RACING=1, racing.ts) for seeds 1, 2 and 3, 300 operations each,
//   side by side (a race's winner is not the seed's: these are not compared for sameness);
//   (the three runs of one seed go side by side, each with its own database, emulator and
//   processes: the same figures from runs that share the machine differently are the proof
//   that nothing in the outcome depends on timing);
// - the control run (RECONCILE_CONTROL=1: no sweep anywhere), which must fail;
// - the planted faults (test/reliability/faults/*.patch), each of which must fail (in racing mode);
// - the lying-gateway scenarios, in which every lie must be reported;
// - the soak (`npm run soak`: three instances, one killed every 20 s), three runs in a row;
// - the mutation summary of the code that decides money (`mutate` in stryker.config.json), when
//   package.json has `npm run mutate` (run here).
// RECONCILE_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// names the PostgreSQL server the runs create their databases on. RELIABILITY_SMALL_OPS,
// RELIABILITY_BIG_OPS, RELIABILITY_RACING_SEEDS (comma-separated) and RELIABILITY_OUT override
// the lengths, the racing seeds and the output file (for a trial; the committed file comes
// from the defaults).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Lies } from '../helpers/razorpay-emulator.js';
import { figureLines, runReconciliation, type RunFigures } from './driver.js';
import { plantFaults, type PlantedResult } from './planted-faults.js';
import type { SoakFigures } from '../soak/soak.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TMP = join(REPO, '.tmp/reliability');
mkdirSync(TMP, { recursive: true });
const databaseUrl =
  process.env.RECONCILE_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const SMALL_OPS = Number(process.env.RELIABILITY_SMALL_OPS ?? 300);
const SMALL_SEED = 7;
const BIG_OPS = Number(process.env.RELIABILITY_BIG_OPS ?? 5000);
const RACING_SEEDS = (process.env.RELIABILITY_RACING_SEEDS ?? '1,2,3').split(',').map(Number);
const OUT = process.env.RELIABILITY_OUT ?? join(REPO, 'RELIABILITY.md');

const startedAt = new Date();
const loadBefore = loadavg();
const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();
const commit = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';

interface Run {
  label: string;
  command: string;
  exitCode: number | null;
  figures: RunFigures | undefined;
}

let runNo = 0;
function reconcile(label: string, env: Record<string, string>): Promise<Run> {
  const json = join(TMP, `run-${++runNo}.json`);
  const command = `${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')} npm run reconcile`;
  console.log(`\n== ${label}: ${command}`);
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/reliability/reconcile-run.ts'], {
      cwd: REPO,
      env: { ...process.env, RECONCILE_DATABASE_URL: databaseUrl, ...env, RECONCILE_JSON: json },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => {
      let figures: RunFigures | undefined;
      try {
        figures = JSON.parse(readFileSync(json, 'utf8')) as RunFigures;
      } catch {
        figures = undefined;
      }
      res({ label, command, exitCode: code, figures });
    });
  });
}

// ---------------------------------------------------------------- the runs
const threeOf = (seed: number, ops: number) =>
  Promise.all(
    [1, 2, 3].map((i) =>
      reconcile(`seed ${seed}, run ${i} of 3`, { RECONCILE_OPS: String(ops), RECONCILE_SEED: String(seed) }),
    ),
  );
const small: Run[] = await threeOf(SMALL_SEED, SMALL_OPS);

const bigSeed = process.env.RELIABILITY_BIG_SEED
  ? Number(process.env.RELIABILITY_BIG_SEED)
  : Math.floor(Math.random() * 2 ** 31);
const bigStarted = Date.now();
const big: Run[] = await threeOf(bigSeed, BIG_OPS);
const bigMinutes = Math.round((Date.now() - bigStarted) / 60_000);

const racingRuns: Run[] = await Promise.all(
  RACING_SEEDS.map((seed) =>
    reconcile(`seed ${seed}, racing`, {
      RECONCILE_OPS: String(SMALL_OPS),
      RECONCILE_SEED: String(seed),
      RECONCILE_RACING: '1',
    }),
  ),
);

const controlRun = await reconcile('control: no sweep anywhere', {
  RECONCILE_OPS: String(SMALL_OPS),
  RECONCILE_SEED: String(SMALL_SEED),
  RECONCILE_CONTROL: '1',
});

console.log('\n== planted faults');
const planted: PlantedResult[] = await plantFaults();

console.log('\n== lying gateway');
const lyingCases: [keyof Lies, string][] = [
  ['refundsNotMade', 'acknowledges a refund it never makes'],
  ['capturesMisreported', 'reports a capture of another amount'],
  ['ordersLost', 'loses every notification and fetch for some orders'],
];
const lying: {
  lie: string;
  what: string;
  lies: number;
  reported: number;
  mismatches: number;
  example: string | undefined;
}[] = [];
for (const [lie, what] of lyingCases) {
  const f = await runReconciliation({
    operations: 40,
    seed: 3,
    databaseUrl,
    lies: { [lie]: 0.5 },
    minimums: false,
  });
  const lied = f.lied[lie] ?? [];
  const reported = lied.filter((l) => f.mismatches.some((m) => m.includes(l.id) || m.includes(l.orderId)));
  const example = f.mismatches.find((m) => lied.some((l) => m.includes(l.id) || m.includes(l.orderId)));
  lying.push({
    lie,
    what,
    lies: lied.length,
    reported: reported.length,
    mismatches: f.mismatches.length,
    example,
  });
  console.log(
    `  ${lie}: ${lied.length} lies, ${reported.length} reported, ${f.mismatches.length} mismatches`,
  );
}

console.log('\n== npm run soak');
const soakJson = join(TMP, 'soak.json');
const soakCode = await new Promise<number | null>((res) =>
  spawn(process.execPath, ['--import', 'tsx', 'test/soak/soak-run.ts'], {
    cwd: REPO,
    env: { ...process.env, SOAK_DATABASE_URL: databaseUrl, SOAK_JSON: soakJson },
    stdio: ['ignore', 'inherit', 'inherit'],
  }).on('exit', res),
);
let soak: SoakFigures[] = [];
try {
  soak = JSON.parse(readFileSync(soakJson, 'utf8')) as SoakFigures[];
} catch {
  soak = [];
}

let mutation: string[] = ['not run: package.json has no `mutate` script.'];
const scripts =
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
    .scripts ?? {};
if (scripts.mutate) {
  console.log('\n== npm run mutate');
  const code = await new Promise<number | null>((res) =>
    spawn('npm', ['run', 'mutate'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] }).on('exit', res),
  );
  const summaryFile = join(REPO, '.tmp/mutation/summary.json');
  if (existsSync(summaryFile)) {
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown>;
    const mutated = (
      JSON.parse(readFileSync(join(REPO, 'stryker.config.json'), 'utf8')) as { mutate: string[] }
    ).mutate;
    mutation = [
      `The code that decides money (docs/decisions/22-figures-and-evidence.md), as \`mutate\` in stryker.config.json lists it: ${mutated.map((f) => `\`${f}\``).join(', ')}.`,
      '',
      `\`npm run mutate\` (exit ${code}), from \`.tmp/mutation/summary.json\`:`,
      '',
      '| | |',
      '|---|---|',
    ];
    const cell = (v: unknown) =>
      typeof v === 'object' && v !== null ? '`' + JSON.stringify(v) + '`' : String(v);
    for (const [k, v] of Object.entries(summary)) {
      if (v && typeof v === 'object' && !Array.isArray(v))
        for (const [k2, v2] of Object.entries(v)) mutation.push(`| ${k} ${k2} | ${cell(v2)} |`);
      else mutation.push(`| ${k} | ${cell(v)} |`);
    }
  } else mutation = [`\`npm run mutate\` ran (exit ${code}) but wrote no \`.tmp/mutation/summary.json\`.`];
}
const loadAfter = loadavg();
const finishedAt = new Date();

// ---------------------------------------------------------------- the report
const same = (runs: Run[]) =>
  runs.length > 1 &&
  runs.every(
    (r) =>
      r.figures && JSON.stringify(figureLines(r.figures)) === JSON.stringify(figureLines(runs[0]!.figures!)),
  );
const n = (v: number) => v.toLocaleString('en-IN');
const rupees = (paise: number) =>
  `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const faultTotal = (f: RunFigures) => Object.values(f.faults).reduce((s, v) => s + v, 0);
const FAULT_NAMES: Record<string, string> = {
  gateway_error: 'gateway answered 503 before doing anything',
  gateway_lost_request: 'gateway connection dropped before doing anything',
  gateway_lost_answer: 'gateway did the request, connection dropped before the answer',
  notifications_never: 'notification never delivered',
  notifications_late: 'notification held back to a later delivery',
  notifications_twice: 'notification delivered twice',
  notifications_reordered: 'batch of notifications delivered shuffled',
  service_kills: 'service process killed (SIGKILL) with its order create held at the gateway',
};

function runTable(runs: Run[]): string[] {
  const rows: [string, (f: RunFigures) => string][] = [
    ['operations', (f) => n(f.operations)],
    ['faults injected (each counted once, by kind below)', (f) => n(faultTotal(f))],
    ['gateway orders', (f) => n(f.orders)],
    ['captured payments / of them refunded', (f) => `${n(f.payments)} / ${n(f.refunds)}`],
    [
      'paid bookings paid at the gateway / confirmed',
      (f) => `${n(f.paidAtGateway)} / ${n(f.confirmedBookings)}`,
    ],
    ['membership periods confirmed', (f) => n(f.confirmedPeriods)],
    [
      'payouts requested / processed / reversed / failed',
      (f) => `${f.payouts.requested} / ${f.payouts.processed} / ${f.payouts.reversed} / ${f.payouts.failed}`,
    ],
    [
      'RazorpayX paid out / ledger payout entries',
      (f) => `${rupees(f.payouts.gatewayProcessedPaise)} / ${rupees(f.payouts.ledgerPaise)}`,
    ],
    ...(runs.some((r) => r.figures?.racing)
      ? ([
          ['racing groups', (f) => n(f.races.groups)],
          [
            'raced requests / groups of ending requests where exactly one acted',
            (f) => `${n(f.races.requests)} / ${n(f.races.oneActed)}`,
          ],
          [
            'raced requests answered',
            (f) =>
              Object.entries(f.races.answers)
                .sort()
                .map(([k, v]) => `${k} × ${v}`)
                .join(', '),
          ],
        ] as [string, (f: RunFigures) => string][])
      : []),
    ...(['tickets', 'memberships'] as const).map(
      (p) =>
        [
          `${p}: gateway captured − refunded / service confirmed${p === 'tickets' ? ' (with what cancellations kept)' : ''} / ledger sales − refunds`,
          (f: RunFigures) => {
            const l = f.money.find((m) => m.product === p && m.account === 'organiser' && m.mode === 'live');
            return l ? `${rupees(l.gatewayNet)} / ${rupees(l.serviceGross)} / ${rupees(l.ledgerNet)}` : '—';
          },
        ] as [string, (f: RunFigures) => string],
    ),
    [
      'ledger fee entries checked against the fee rules (docs/decisions/09-money-and-fees.md)',
      (f) => n(f.feeEntriesChecked),
    ],
    [
      'sweeps (orders checked, confirmed, refunded, orphans found)',
      (f) =>
        `${f.sweeps} (${n(f.sweepTotals.checked)}, ${f.sweepTotals.confirmed}, ${f.sweepTotals.refunded}, ${f.sweepTotals.orphansFound})`,
    ],
    ['stalls (interleavings released early)', (f) => String(f.stalls)],
    ['**mismatches**', (f) => `**${f.mismatches.length}**`],
    ['exit code', () => ''],
    ['took', (f) => `${f.seconds} s`],
  ];
  const out = [`| | ${runs.map((r) => r.label).join(' | ')} |`, `|---|${runs.map(() => '---|').join('')}`];
  for (const [name, get] of rows) {
    out.push(
      `| ${name} | ${runs.map((r) => (name === 'exit code' ? String(r.exitCode) : r.figures ? get(r.figures) : 'no figures (the run crashed)')).join(' | ')} |`,
    );
  }
  return out;
}

function faultsTable(runs: Run[]): string[] {
  const f = runs.find((r) => r.figures)?.figures;
  if (!f) return [];
  return [
    '| fault | what | count |',
    '|---|---|---|',
    ...Object.entries(f.faults)
      .sort()
      .map(([k, v]) => `| \`${k}\` | ${FAULT_NAMES[k] ?? k} | ${n(v)} |`),
  ];
}

function kinds(runs: Run[]): string {
  const f = runs.find((r) => r.figures)?.figures;
  return f
    ? Object.entries(f.byKind)
        .sort()
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(', ')
    : '—';
}

function mismatchList(r: Run): string[] {
  const m = r.figures?.mismatches ?? [];
  return m.length === 0
    ? []
    : [
        '',
        `Mismatches of ${r.label}${m.length > 20 ? ` (first 20 of ${m.length})` : ''}:`,
        '',
        ...m.slice(0, 20).map((x) => `- ${x}`),
      ];
}

function sameness(runs: Run[]): string {
  if (same(runs))
    return `The ${runs.length} runs printed the same figures, line for line (every figure but the time taken).`;
  const lines = runs.map((r) => (r.figures ? figureLines(r.figures) : []));
  const differing = lines[0]!.filter((l, i) => lines.some((x) => x[i] !== l)).length;
  return `**The runs did not print the same figures** (${differing} lines differ): the run is not fully reproducible on this machine.`;
}

const md: string[] = [
  '# Reliability',
  '',
  `Generated by \`npm run reliability\` (\`test/reliability/reliability.ts\`) in one run; every figure below comes from that run. Do not edit by hand.`,
  '',
  '| | |',
  '|---|---|',
  `| machine | ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version} |`,
  `| PostgreSQL | ${new URL(databaseUrl).host} |`,
  `| started / finished | ${startedAt.toISOString()} / ${finishedAt.toISOString()} |`,
  `| load average (1, 5, 15 min) before / after | ${loadBefore.map((x) => x.toFixed(2)).join(', ')} / ${loadAfter.map((x) => x.toFixed(2)).join(', ')} |`,
  `| commit | \`${commit}\`${dirty ? ' (with uncommitted changes)' : ''} |`,
  '',
  '## What a run does',
  '',
  "The reconciliation run (`test/reliability/driver.ts`, `npm run reconcile`) checks the service's promise — every captured paisa ends in exactly one place, a confirmed booking or membership period, or a full refund — and that the gateway, the service and the ledger tell the same story, under the failures a payment system meets. It starts the Razorpay emulator (with RazorpayX), a fresh PostgreSQL database and two service processes in live mode; draws the operations from the seed (paid bookings paid and confirmed, duplicate step 2s, authorised-only payments, browsers closed after paying, abandoned bookings, organiser cancels and refunds racing step 2, fixed-term memberships, a cancel racing the confirm, repeat subscribes paid twice, promo codes at their limit, event deletions, notifications delivered late, twice, shuffled or never, organiser payouts to UPI settled processed, reversed or failed), and kills one process mid-request. The same seed gives the same operations and the same figures: see docs/operations/reliability-runs.md for how.",
  '',
  "Racing mode (`RECONCILE_RACING=1`, `test/reliability/racing.ts`) adds, after about one operation in four, a group of concurrent changes to one booking fired at once at both processes, their gateway requests released together: cancels from the attendee's page (two or three tabs, sometimes the organiser too), cancel × refund, refund × refund, the attendee's cancel under a fee-keeping policy × the organiser's refund, step 2 × cancel, the gateway's notification × step 2, transfer × cancel. The seed picks the groups, the requests and the processes; which request wins is a real race, so a racing run's figures may differ between runs of one seed, and its checks must hold whichever wins. Of each group of ending requests at most one may answer 2xx.",
  '',
  "At the end it checks, each side read on its own: per order and per payment, the gateway's captured − refunded against what the service confirmed or kept (a cancellation's fee); per sold booking, the gateway's refunds of its payment against the ledger's refund entries (a refund made twice shows here), and a kept fee against its event's policy; no refund claim left open; seats against confirmed heads; promo uses against their limits; per account, mode and product (tickets, memberships) the gateway's captured − refunded = the service's confirmed gross with what cancellations kept = the ledger's sales − refunds (entries read as stored); every fee entry against the fee rules (docs/decisions/09-money-and-fees.md) written out independently (platform fee by ordinal, 3 % gateway charge per ticket; the 3 % gateway charge on live membership payments); RazorpayX's processed − reversed payouts = the ledger's payout entries, and each payout's state; the service's own ledger recomputation; and minimums that make an idle run fail (at least 30 % of the bookings paid at the gateway confirmed, tickets and memberships both paid, a payout processed, every fault kind fired at least once).",
  '',
  `## Seed ${SMALL_SEED}, ${n(SMALL_OPS)} operations, three times`,
  '',
  `Command: \`${small[0]?.command ?? ''}\`, three times, side by side.`,
  '',
  sameness(small),
  '',
  `Operations: ${kinds(small)}.`,
  '',
  ...runTable(small),
  '',
  'Faults by kind (run 1):',
  '',
  ...faultsTable(small),
  ...mismatchList(small[0]!),
  '',
  `## ${n(BIG_OPS)} operations, seed ${bigSeed}, three times`,
  '',
  `Command: \`${big[0]?.command ?? ''}\`, three times, side by side; ${bigMinutes} minutes for the three.`,
  '',
  sameness(big),
  '',
  `Operations: ${kinds(big)}.`,
  '',
  ...runTable(big),
  '',
  'Faults by kind (run 1):',
  '',
  ...faultsTable(big),
  ...mismatchList(big[0]!),
  '',
  `## Racing mode: seeds ${RACING_SEEDS.join(', ')}, ${n(SMALL_OPS)} operations each`,
  '',
  `Commands: ${racingRuns.map((r) => `\`${r.command}\``).join(', ')}, side by side. Which request of a group wins is not the seed's: these figures are one outcome of each seed, and the checks must hold for every outcome.`,
  '',
  ...runTable(racingRuns),
  ...racingRuns.flatMap(mismatchList),
  '',
  '## Control: no sweep anywhere',
  '',
  `Command: \`${controlRun.command}\`. The service processes never sweep (\`RECONCILE_EVERY_SECONDS=0\`, not even on start) and neither does the driver; the run must end with mismatches, and ${controlRun.figures && controlRun.figures.mismatches.length > 0 && controlRun.exitCode !== 0 ? `it did: **${controlRun.figures.mismatches.length} mismatches**, exit ${controlRun.exitCode}` : `**it did not** (exit ${controlRun.exitCode}, ${controlRun.figures?.mismatches.length ?? 'no'} mismatches)`}.`,
  '',
  ...runTable([controlRun]),
  ...mismatchList(controlRun),
  '',
  '## Planted faults',
  '',
  `Each patch under \`test/reliability/faults/\` is applied to a copy of the working tree, where a run of ${n(Number(process.env.PLANTED_OPS ?? 150))} operations (seed ${Number(process.env.PLANTED_SEED ?? 11)}) must fail, in racing mode (\`node --import tsx test/reliability/planted-faults.ts\`).`,
  '',
  '| planted fault | exit | mismatches | caught | first mismatch |',
  '|---|---|---|---|---|',
  ...planted.map(
    (p) =>
      `| ${p.description} (\`${p.fault}\`) | ${p.exitCode} | ${p.mismatches} | ${p.caught ? 'yes' : '**no**'} | ${(p.firstMismatches[0] ?? '').replace(/\|/g, '\\|')} |`,
  ),
  '',
  '## A lying gateway',
  '',
  'The emulator lies in three ways (options used only by `test/reliability/lying-gateway.test.ts` and this report; no switch in the service): 40 operations, seed 3, half of what a lie can apply to. Lies told counts the payments (or orders) the emulator lists as lied about; one is reported when a mismatch names its payment or order id. The run fails unless every lie is reported.',
  '',
  '| the gateway | lies told | reported by a mismatch | mismatches | example |',
  '|---|---|---|---|---|',
  ...lying.map(
    (l) =>
      `| ${l.what} | ${l.lies} | ${l.reported} | ${l.mismatches} | ${(l.example ?? '—').replace(/\|/g, '\\|')} |`,
  ),
  '',
  '## Three instances under fire (the soak)',
  '',
  `Command: \`npm run soak\` (exit ${soakCode}): three service processes on one PostgreSQL database and one Redis, mixed load for ${Number(process.env.SOAK_SECONDS ?? 180)} s (free and paid registrations, payments and their notifications through the emulator, door scans, broadcasts) with one instance killed (SIGKILL) and started again every ${Number(process.env.SOAK_KILL_EVERY_SECONDS ?? 20)} s, three runs in a row; then the invariants of docs/decisions/19-developers-and-operators.md (\`test/soak/soak.ts\` lists them), each read from the side that keeps it.`,
  '',
  ...(soak.length === 0
    ? ['**No soak figures** (the soak crashed before writing them).']
    : [
        `| | ${soak.map((_, i) => `run ${i + 1}`).join(' | ')} |`,
        `|---|${soak.map(() => '---|').join('')}`,
        ...(
          [
            ['instances killed', (x: SoakFigures) => n(x.kills)],
            [
              'bookings acknowledged: free / paid',
              (x: SoakFigures) => `${n(x.acknowledged.free)} / ${n(x.acknowledged.paid)}`,
            ],
            [
              'requests refused or failed (killed instance, full event)',
              (x: SoakFigures) => n(x.refusedOrFailed),
            ],
            [
              'door admits / re-scans answered "already in"',
              (x: SoakFigures) => `${n(x.admits)} / ${n(x.rescans)}`,
            ],
            ['broadcasts / their mails', (x: SoakFigures) => `${n(x.broadcasts)} / ${n(x.broadcastMails)}`],
            ['confirmed bookings with their ticket mail', (x: SoakFigures) => n(x.ticketMails)],
            [
              'webhooks delivered / recorded failed (a worker killed mid-delivery)',
              (x: SoakFigures) => `${n(x.webhooksDelivered)} / ${n(x.webhooksFailed)}`,
            ],
            ['gateway notifications delivered', (x: SoakFigures) => n(x.notificationsDelivered)],
            ['seconds until every job had run after the load', (x: SoakFigures) => n(x.drainSeconds)],
            ['**invariants broken**', (x: SoakFigures) => `**${x.violations.length}**`],
          ] as [string, (x: SoakFigures) => string][]
        ).map(([name, get]) => `| ${name} | ${soak.map(get).join(' | ')} |`),
        ...soak.flatMap((x, i) =>
          x.violations.length === 0
            ? []
            : ['', `Broken in run ${i + 1}:`, '', ...x.violations.slice(0, 20).map((v) => `- ${v}`)],
        ),
      ]),
  '',
  '## Mutation testing',
  '',
  ...mutation,
  '',
];
writeFileSync(OUT, md.join('\n'));
console.log(`\nwrote ${OUT}`);
const ok =
  small.every((r) => r.exitCode === 0) &&
  same(small) &&
  big.every((r) => r.exitCode === 0) &&
  same(big) &&
  racingRuns.every((r) => r.exitCode === 0) &&
  controlRun.exitCode !== 0 &&
  (controlRun.figures?.mismatches.length ?? 0) > 0 &&
  planted.every((p) => p.caught) &&
  lying.every((l) => l.lies > 0 && l.reported === l.lies) &&
  soakCode === 0;
process.exit(ok ? 0 : 1);

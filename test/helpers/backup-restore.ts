// A backup and point-in-time restore, end to end, with the tools PostgreSQL ships: a throwaway
// cluster with continuous archiving, the service booking on it over HTTP, a pg_basebackup, more
// bookings, a named restore point, more bookings; then a new cluster from the base backup and the
// archive, recovered to the restore point, and checked: the bookings acknowledged before the
// target are there, none made after it is, the seat counters agree with the bookings, and the
// service starts on the restored database, lists the bookings and books again.
// Used by `npm run backup:check` (scripts/backup-restore-check.mjs) and
// test/durability/backup-restore.test.ts.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, keyApi } from './factories.js';
import { call, organiser } from './http.js';
import {
  findToolset,
  initdb,
  type RunningCluster,
  runAs,
  runTool,
  serverDir,
  serverFile,
  startCluster,
  type Toolset,
  waitArchived,
} from './pg-cluster.js';
import { startServer, type TestServer } from './server.js';

export interface CheckOptions {
  /** Bookings before the base backup, between it and the restore target, and after the target. */
  before: number;
  between: number;
  after: number;
  log?: (line: string) => void;
}

export interface CheckResult {
  target: string;
  /** Bookings acknowledged before the target (before and after the base backup), sorted. */
  expected: string[];
  /** Bookings acknowledged after the target. */
  afterTarget: string[];
  /** Registration ids in the restored database, sorted. */
  restored: string[];
  /** Registration ids the service lists on the restored database, sorted. */
  listed: string[];
  /** Registrations in the source database just after the target was set. */
  countAtTarget: number;
  counters: { eventId: string; taken: number; booked: number }[];
  /** The status of a booking made on the restored database. */
  bookedAgain: number;
  /** Every mismatch found; empty when the restore is right. */
  problems: string[];
}

export const NO_TOOLS =
  'no PostgreSQL installation with initdb, postgres and pg_basebackup was found (tried PG_BINDIR, `pg_config --bindir`, /usr/lib/postgresql/*/bin, /usr/local/pgsql/bin)';

interface Dirs {
  primary: string;
  archive: string;
  base: string;
  restored: string;
}

interface History {
  target: string;
  key: string;
  events: string[];
  expected: string[];
  afterTarget: string[];
  countAtTarget: number;
}

export async function backupRestoreCheck(o: CheckOptions): Promise<CheckResult> {
  const tools = findToolset();
  if (!tools) throw new Error(NO_TOOLS);
  const log = o.log ?? (() => {});
  const as = runAs();
  const root = mkdtempSync(join(tmpdir(), 'svc-backup-'));
  chmodSync(root, 0o711); // the servers' user (as root: nobody) passes through to its own directory
  const work = serverDir(join(root, 'work'), as);
  const dirs: Dirs = {
    primary: join(work, 'primary'),
    archive: serverDir(join(work, 'archive'), as),
    base: join(work, 'base'),
    restored: join(work, 'restored'),
  };
  const open: { close(): Promise<void> }[] = [];
  try {
    log(`PostgreSQL ${tools.major} from ${tools.bindir}; working in ${work}`);
    const history = await writeHistory(tools, dirs, o, open, log);
    return await restoreAndVerify(tools, dirs, history, open, log);
  } finally {
    for (const thing of open.reverse()) await thing.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
}

function closer(cluster: RunningCluster): { close(): Promise<void> } {
  return { close: () => cluster.stop() };
}

/** The source cluster: bookings, the base backup, bookings, the restore point, bookings, archived. */
async function writeHistory(
  tools: Toolset,
  dirs: Dirs,
  o: CheckOptions,
  open: { close(): Promise<void> }[],
  log: (line: string) => void,
): Promise<History> {
  await initdb(tools, dirs.primary);
  const primary = await startCluster(tools, dirs.primary, {
    wal_level: 'replica',
    archive_mode: 'on',
    archive_command: `test ! -f ${dirs.archive}/%f && cp %p ${dirs.archive}/%f`,
  });
  open.push(closer(primary));
  log(`source cluster on port ${primary.port}, archiving WAL to ${dirs.archive}`);
  const service = await startServer({ env: { DATABASE_URL: primary.url } });
  open.push(service);
  log(`service on ${service.url} ran its migrations on the source cluster`);
  const org = await organiser(service.url);
  const api = keyApi(service.url, org.key);
  const events = [await createEvent(api, { capacity: 1000 }), await createEvent(api, { capacity: 1000 })];
  const book = (n: number) => bookMany(service, org.key, events, n);

  const before = await book(o.before);
  log(`${before.length} bookings acknowledged; taking the base backup`);
  await runTool(tools, 'pg_basebackup', [
    ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
    ...['-D', dirs.base, '-F', 'p', '-X', 'stream', '-c', 'fast'],
  ]);
  const between = await book(o.between);
  const target = `backup-check-${Date.now()}`;
  await primary.query('select pg_create_restore_point($1)', [target]);
  const [{ n }] = await primary.query<{ n: number }>('select count(*)::int as n from registrations');
  log(`${between.length} more bookings after the backup; restore point "${target}" (${n} registrations)`);
  const afterTarget = await book(o.after);
  // The WAL holding the bookings after the target reaches the archive too: the restore must stop
  // at the target because it was asked to, not because the later WAL was missing.
  const [{ wal }] = await primary.query<{ wal: string }>(
    'select pg_walfile_name(pg_current_wal_lsn()) as wal',
  );
  await primary.query('select pg_switch_wal()');
  await waitArchived(primary, wal);
  log(`${afterTarget.length} bookings after the target; WAL archived up to ${wal}`);
  await service.close();
  await primary.stop();
  open.length = 0;
  const expected = [...before, ...between].sort();
  return { target, key: org.key, events, expected, afterTarget, countAtTarget: n };
}

/** Books `n` free tickets one after another across `events`; answers the acknowledged ids. */
async function bookMany(service: TestServer, key: string, events: string[], n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const eventId = events[i % events.length]!;
    const r = await call(service.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key,
      body: { name: 'Backup Check', email: `backup-check-${Date.now()}-${i}@example.in` },
    });
    if (r.status !== 201) throw new Error(`booking failed: ${r.status} ${r.text}`);
    ids.push(r.body.registrationId as string);
  }
  return ids;
}

/** A new cluster from the base backup, recovered from the archive to the restore point, then checked. */
async function restoreAndVerify(
  tools: Toolset,
  dirs: Dirs,
  h: History,
  open: { close(): Promise<void> }[],
  log: (line: string) => void,
): Promise<CheckResult> {
  execFileSync('cp', ['-a', dirs.base, dirs.restored]);
  serverFile(join(dirs.restored, 'recovery.signal'), '', runAs());
  const restored = await startCluster(
    tools,
    dirs.restored,
    {
      restore_command: `cp ${dirs.archive}/%f %p`,
      recovery_target_name: h.target,
      recovery_target_action: 'promote',
    },
    'select not pg_is_in_recovery()',
  );
  open.push(closer(restored));
  log(`restored cluster on port ${restored.port}: recovered to "${h.target}" and promoted`);
  const ids = (await restored.query<{ id: string }>('select id from registrations order by id')).map(
    (r) => r.id,
  );
  const counters = await restored.query<{ eventId: string; taken: number; booked: number }>(
    `select c.event_id as "eventId", c.taken,
       (select coalesce(sum(r.quantity), 0)::int from registrations r
         where r.event_id = c.event_id and r.status = 'confirmed') as booked
     from seat_counters c where c.scope = 'event' order by c.event_id`,
  );
  const service = await startServer({ env: { DATABASE_URL: restored.url } });
  open.push(service);
  const listed = await listBookings(service, h.key, h.events);
  const again = await call(service.url, 'POST', `/api/v1/events/${h.events[0]}/register`, {
    key: h.key,
    body: { name: 'After Restore', email: `after-restore-${Date.now()}@example.in` },
  });
  log(`service on the restored cluster lists ${listed.length} bookings and books again (${again.status})`);
  const result: CheckResult = {
    target: h.target,
    expected: h.expected,
    afterTarget: h.afterTarget,
    restored: ids,
    listed,
    countAtTarget: h.countAtTarget,
    counters,
    bookedAgain: again.status,
    problems: [],
  };
  result.problems = problemsOf(result);
  return result;
}

async function listBookings(service: TestServer, key: string, events: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const eventId of events) {
    const r = await call(service.url, 'GET', `/api/v1/events/${eventId}/registrations?limit=1000`, { key });
    if (r.status !== 200) throw new Error(`listing failed: ${r.status} ${r.text}`);
    ids.push(...(r.body.data as { id: string }[]).map((x) => x.id));
  }
  return ids.sort();
}

/** Every way the restored database differs from the history written before the target. */
export function problemsOf(r: CheckResult): string[] {
  const problems: string[] = [];
  const have = new Set(r.restored);
  const missing = r.expected.filter((id) => !have.has(id));
  if (missing.length > 0) problems.push(`missing after the restore: ${missing.join(', ')}`);
  const expected = new Set(r.expected);
  const extra = r.restored.filter((id) => !expected.has(id));
  if (extra.length > 0) problems.push(`present but not booked before the target: ${extra.join(', ')}`);
  const late = r.afterTarget.filter((id) => have.has(id));
  if (late.length > 0) problems.push(`booked after the target, yet restored: ${late.join(', ')}`);
  if (r.restored.length !== r.countAtTarget)
    problems.push(`${r.restored.length} registrations restored, ${r.countAtTarget} at the target`);
  if (r.listed.join() !== r.expected.join())
    problems.push('the service lists other bookings than those expected');
  for (const c of r.counters)
    if (c.taken !== c.booked)
      problems.push(`event ${c.eventId}: seat counter ${c.taken}, bookings ${c.booked}`);
  if (r.counters.length === 0) problems.push('no seat counters restored');
  if (r.bookedAgain !== 201) problems.push(`a booking on the restored database answered ${r.bookedAgain}`);
  return problems;
}

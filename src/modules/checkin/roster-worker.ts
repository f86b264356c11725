// The worker thread a whole roster read runs in (roster-build.ts starts one per read): it reads
// the event's people page by page in one snapshot over a connection of its own, takes them into
// a store, asks the main thread after the head and after each page whether to go on, and hands
// the complete store over, its buffers moved rather than copied.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from '../../db/database.js';
import { RosterBuild, type WorkerInput, type WorkerMessage } from './roster-build.js';
import { storeParts } from './roster-parts.js';
import { readRosterPages } from './roster.repo.js';

// int8 as numbers, as the service's own pool reads them (src/db/connect.ts).
pg.types.setTypeParser(20, (v) => Number(v));

const port = parentPort!;
const { connection, eventId, pageRows } = workerData as WorkerInput;
const answers: ((go: boolean) => void)[] = [];
port.on('message', (go: boolean) => answers.shift()?.(go));
const say = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const ask = (m: WorkerMessage) =>
  new Promise<boolean>((resolve) => {
    answers.push(resolve);
    say(m);
  });

const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ ...connection, max: 1 }) }),
});
try {
  let build: RosterBuild | undefined;
  let stopped = false;
  await readRosterPages(db, eventId, pageRows, {
    head: async (head) => {
      stopped = !(await ask({ kind: 'head', head }));
      if (!stopped) build = new RosterBuild(head);
      return !stopped;
    },
    page: async (rows) => {
      build!.add(rows);
      stopped = !(await ask({ kind: 'page' }));
      return !stopped;
    },
  });
  if (stopped || !build) say({ kind: 'stopped' });
  else {
    const { head, store } = build.done();
    const { parts, transfer } = storeParts(store);
    say({ kind: 'done', head, parts }, transfer);
  }
} catch (err) {
  say({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
} finally {
  await db.destroy();
  port.close();
}

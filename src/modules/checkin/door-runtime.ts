// What makes the door fast in one service instance (docs/decisions/15-the-door.md, speed): the in-memory
// rosters, the LISTEN connection that keeps them current, and the admits' group commit.
// Built once by createDeps; closed with it.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Database } from '../../db/database.js';
import { AdmitGroups } from './admits.js';
import { DoorListener } from './door-listener.js';
import { DoorRosters } from './rosters.js';

export interface DoorRuntime {
  readonly rosters: DoorRosters;
  readonly admits: AdmitGroups;
  close(): Promise<void>;
}

export interface DoorRuntimeDeps {
  db: Kysely<Database>;
  logger: Logger;
  registry?: Registry;
  /** The database as a connection of its own (LISTEN), and the pool's NOTICEs. */
  connection: pg.ClientConfig;
  onNotice(handler: (message: string) => void): void;
  /** Whether a notification came from one of this instance's own sessions (its change is known already). */
  ownBackend(pid: number): boolean;
  checkEveryMs: number;
}

export function startDoorRuntime(deps: DoorRuntimeDeps): DoorRuntime {
  const rosters = new DoorRosters(deps);
  const admits = new AdmitGroups({
    db: deps.db,
    rosters,
    ...(deps.registry ? { registry: deps.registry } : {}),
  });
  // A change this instance wrote: known before its writer answers anyone.
  deps.onNotice((message) => {
    const m = /^door_changed (\S+) ([0-9]+)$/.exec(message);
    if (m) rosters.changed(m[1]!, Number(m[2]), false);
  });
  const listener = new DoorListener({
    connection: deps.connection,
    rosters,
    logger: deps.logger,
    checkEveryMs: deps.checkEveryMs,
    ownBackend: deps.ownBackend,
  });
  listener.start();
  return {
    rosters,
    admits,
    async close() {
      await listener.stop();
      await rosters.close();
    },
  };
}

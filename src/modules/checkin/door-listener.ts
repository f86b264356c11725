// The door's one LISTEN connection per instance (docs/decisions/15-the-door.md, speed): a pg client of its
// own, outside the pool, that hears the `door` channel (`<event id> <version>`, or
// `<event id> deleted`) and tells the rosters. When it drops, no roster is vouched for (the
// door asks the database) until it is back: it reconnects with back-off, runs LISTEN, and
// then compares every roster's version with the database's; a roster behind has missed a
// notification and is read whole. The same comparison runs every `checkEveryMs` while
// connected, which also proves the connection alive.
import pg from 'pg';
import type { Logger } from 'pino';
import type { DoorRosters } from './rosters.js';
import { versionsOf } from './roster.repo.js';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

export interface ListenerOptions {
  /** How to reach the database (a DATABASE_URL, or the embedded server's socket). */
  connection: pg.ClientConfig;
  rosters: DoorRosters;
  logger: Logger;
  checkEveryMs: number;
  /**
   * This instance's own sessions: their changes reached the rosters already (the version the
   * door's statements return, the NOTICE of any other write), before the notification can.
   */
  ownBackend(pid: number): boolean;
}

export class DoorListener {
  readonly #o: ListenerOptions;
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #backoff = FIRST_RETRY_MS;
  #checking = false;
  #stopped = false;
  #connecting: Promise<void> | undefined;

  constructor(options: ListenerOptions) {
    this.#o = options;
  }

  /** Connects in the background; the door asks the database until LISTEN is on. */
  start(): void {
    this.#connecting = this.#connect();
    this.#timer = setInterval(() => void this.#tick(), this.#o.checkEveryMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#retry);
    await this.#connecting;
    const c = this.#client;
    this.#client = undefined;
    await c?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({
      ...this.#o.connection,
      application_name: `door listener (pid ${process.pid})`,
      keepAlive: true,
    });
    client.on('error', (err) => this.#o.logger.warn({ err: err.message }, 'door listener connection error'));
    try {
      await client.connect();
      client.on('notification', (m) => {
        if (!this.#o.ownBackend(m.processId)) this.#heard(m.payload ?? '');
      });
      client.once('end', () => this.#lost(client));
      await client.query('listen door');
      if (this.#stopped) {
        await client.end();
        return;
      }
      this.#client = client;
      this.#o.rosters.listening(true);
      this.#backoff = FIRST_RETRY_MS;
      // Everything held was built before this LISTEN: only the versions can vouch for it.
      await this.#check(client, true);
    } catch (err) {
      this.#o.logger.warn(
        { err: (err as Error).message, retryInMs: this.#backoff },
        'door listener could not connect',
      );
      await client.end().catch(() => {});
      if (this.#client === client) this.#lost(client);
      else this.#again();
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#o.rosters.listening(false);
    if (!this.#stopped)
      this.#o.logger.warn('door listener lost its connection; the door asks the database until it is back');
    this.#again();
  }

  #again(): void {
    if (this.#stopped) return;
    const wait = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, LAST_RETRY_MS);
    this.#retry = setTimeout(() => {
      this.#connecting = this.#connect();
    }, wait);
    this.#retry.unref();
  }

  #heard(payload: string): void {
    const [eventId, what] = payload.split(' ');
    if (!eventId || !what) return;
    if (what === 'deleted') this.#o.rosters.deleted(eventId);
    else if (/^[0-9]+$/.test(what)) this.#o.rosters.changed(eventId, Number(what));
  }

  async #tick(): Promise<void> {
    this.#o.rosters.sweep();
    const client = this.#client;
    if (!client) return;
    try {
      await this.#check(client, false);
    } catch (err) {
      // A connection that cannot answer is dropped and made again.
      this.#o.logger.warn({ err: (err as Error).message }, 'door version check failed');
      await client.end().catch(() => {});
    }
  }

  /**
   * Compares the rosters' versions with the database's, on the LISTEN connection itself, so
   * the notifications sent before the answer arrive before it. Right after (re)connecting, a
   * roster behind missed a notification for sure; otherwise one may still be on its way, so a
   * second round trip lets it in before a roster counts as having missed it.
   */
  async #check(client: pg.Client, reconnected: boolean): Promise<void> {
    const held = this.#o.rosters.held();
    if (this.#checking || (held.length === 0 && !reconnected)) return;
    this.#checking = true;
    try {
      const query = (text: string, values: unknown[]) => client.query(text, values);
      const versions = held.length === 0 ? new Map<string, number>() : await versionsOf(query, held);
      let behind = this.#o.rosters.behind(versions, reconnected);
      if (!reconnected && behind.length > 0) {
        await client.query('select 1');
        behind = this.#o.rosters.behind(versions, false);
      }
      if (this.#client === client) this.#o.rosters.vouch(versions, behind);
    } finally {
      this.#checking = false;
    }
  }
}

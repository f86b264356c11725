// Queries on the table the idempotency module owns: idempotency_keys, one row per
// (account, mode, key).
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, IdempotencyKeysTable, Mode } from '../../db/database.js';

export type Db = Kysely<Database> | Transaction<Database>;
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface Claim {
  accountId: string;
  mode: Mode;
  key: string;
  requestHash: string;
}

/**
 * Takes the key for a request: a new row, or a row whose answer has expired, or an
 * in-flight row whose holder died (its lock passed). True when this request holds it now.
 */
export async function claim(
  db: Db,
  c: Claim,
  now: Date,
  lockedUntil: Date,
  expiredBefore: Date,
): Promise<boolean> {
  const r = await db
    .insertInto('idempotency_keys')
    .values({
      account_id: c.accountId,
      mode: c.mode,
      key: c.key,
      request_hash: c.requestHash,
      status: 'in_flight',
      response_status: null,
      response_type: null,
      response_body: null,
      locked_until: lockedUntil,
      created_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'mode', 'key'])
        .doUpdateSet({
          request_hash: c.requestHash,
          status: 'in_flight',
          response_status: null,
          response_type: null,
          response_body: null,
          locked_until: lockedUntil,
          created_at: now,
        })
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<', expiredBefore),
            eb.and([
              eb('idempotency_keys.status', '=', 'in_flight'),
              eb('idempotency_keys.locked_until', '<', now),
              eb('idempotency_keys.request_hash', '=', c.requestHash),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return r !== undefined;
}

export function find(
  db: Db,
  accountId: string,
  mode: Mode,
  key: string,
): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function store(
  db: Db,
  c: Omit<Claim, 'requestHash'>,
  answer: { status: number; type: string | null; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: 'done',
      response_status: answer.status,
      response_type: answer.type,
      response_body: answer.body,
    })
    .where('account_id', '=', c.accountId)
    .where('mode', '=', c.mode)
    .where('key', '=', c.key)
    .where('status', '=', 'in_flight')
    .execute();
}

export async function release(db: Db, c: Omit<Claim, 'requestHash'>): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', c.accountId)
    .where('mode', '=', c.mode)
    .where('key', '=', c.key)
    .where('status', '=', 'in_flight')
    .execute();
}

/** Answers older than `before` are forgotten, a batch at a time. */
export async function prune(db: Db, before: Date, batch = 1000): Promise<number> {
  const r = await db
    .deleteFrom('idempotency_keys')
    .where('key', 'in', (eb) =>
      eb.selectFrom('idempotency_keys').select('key').where('created_at', '<', before).limit(batch),
    )
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

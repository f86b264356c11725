// The queue in PostgreSQL, for a service without Redis: a room row per event (locked while a
// place is made or the room opens), a place per verified contact, verifications locked while a
// code is checked, and the admission cursor moved by a conditional update, so instances on one
// database see one queue.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { advance, LATE_OFFSET } from './admission.js';
import type { PlaceState, QueueStore, Verification, Verified, VerifyInput } from './queue-store.js';

type Db = Kysely<Database>;

async function lockRoom(trx: Db, eventId: string) {
  await trx
    .insertInto('waiting_room_rooms')
    .values({ event_id: eventId })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
  return trx
    .selectFrom('waiting_room_rooms')
    .selectAll()
    .where('event_id', '=', eventId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** The verified contact's place, made at the end of the pre-queue or the queue when it has none. */
async function placeFor(
  trx: Db,
  eventId: string,
  v: { email: string; phone: string | null; channel: 'email' | 'whatsapp' },
  input: VerifyInput,
): Promise<Verified> {
  const room = await lockRoom(trx, eventId);
  const byPhone = v.channel === 'whatsapp';
  const had = await trx
    .selectFrom('waiting_room_places')
    .select('place_id')
    .where('event_id', '=', eventId)
    .where('verified_by', '=', v.channel)
    .$if(byPhone, (q) => q.where('phone', '=', v.phone))
    .$if(!byPhone, (q) => q.where('email', '=', v.email))
    .executeTakeFirst();
  if (had) return { kind: 'placed', placeId: had.place_id, existing: true };
  const seq = Number(room.next_seq) + 1;
  await trx
    .updateTable('waiting_room_rooms')
    .set({ next_seq: seq })
    .where('event_id', '=', eventId)
    .execute();
  await trx
    .insertInto('waiting_room_places')
    .values({
      place_id: input.placeId,
      event_id: eventId,
      email: v.email,
      phone: v.phone,
      verified_by: v.channel,
      arrival_seq: seq,
      score: room.opened_at ? LATE_OFFSET + seq : null,
      joined_at: input.now,
    })
    .execute();
  return { kind: 'placed', placeId: input.placeId, existing: false };
}

export class PgQueueStore implements QueueStore {
  readonly kind = 'postgres' as const;
  constructor(readonly db: Db) {}

  async startVerification(eventId: string, v: Verification, now: Date): Promise<void> {
    // Spent and expired verifications go a day after their expiry, a few at each new one.
    await sql`delete from waiting_room_verifications where verification_id in (
      select verification_id from waiting_room_verifications
      where expires_at < ${new Date(now.getTime() - 86_400_000)} limit 100)`.execute(this.db);
    await this.db
      .insertInto('waiting_room_verifications')
      .values({
        verification_id: v.id,
        event_id: eventId,
        email: v.email,
        phone: v.phone,
        channel: v.channel,
        code_mac: v.codeMac,
        expires_at: v.expiresAt,
        created_at: now,
      })
      .execute();
  }

  async verify(eventId: string, input: VerifyInput): Promise<Verified> {
    return this.db.transaction().execute(async (trx) => {
      // Locked: two instances given the same code check it one after the other.
      const v = await trx
        .selectFrom('waiting_room_verifications')
        .selectAll()
        .where('verification_id', '=', input.verificationId)
        .where('event_id', '=', eventId)
        .forUpdate()
        .executeTakeFirst();
      if (!v || v.used_at !== null) return { kind: 'unknown' };
      if (v.attempts >= input.maxAttempts) return { kind: 'spent' };
      if (input.now.getTime() >= new Date(v.expires_at).getTime()) return { kind: 'expired' };
      const set = trx
        .updateTable('waiting_room_verifications')
        .where('verification_id', '=', v.verification_id);
      if (v.code_mac !== input.codeMac) {
        const tries = v.attempts + 1;
        await set.set({ attempts: tries }).execute();
        return tries >= input.maxAttempts
          ? { kind: 'spent' }
          : { kind: 'wrong', attemptsLeft: input.maxAttempts - tries };
      }
      await set.set({ used_at: input.now }).execute();
      return placeFor(trx, eventId, v, input);
    });
  }

  open(
    eventId: string,
    now: Date,
    rate: number,
    seedHex: string,
    order: (ids: string[], seedHex: string) => string[],
  ) {
    return this.db.transaction().execute(async (trx) => {
      const room = await lockRoom(trx, eventId);
      if (room.opened_at) return { opened: false, count: 0, seedHex };
      const pre = await trx
        .selectFrom('waiting_room_places')
        .select('place_id')
        .where('event_id', '=', eventId)
        .where('score', 'is', null)
        .execute();
      const ids = order(
        pre.map((p) => p.place_id),
        seedHex,
      );
      if (ids.length > 0)
        await sql`update waiting_room_places p set score = v.rank
          from unnest(${ids}::text[]) with ordinality as v(place_id, rank)
          where p.place_id = v.place_id`.execute(trx);
      await trx
        .updateTable('waiting_room_rooms')
        .set({ opened_at: now, shuffle_seed: seedHex, admitted_base: 0, anchor_ms: now.getTime(), rate })
        .where('event_id', '=', eventId)
        .execute();
      return { opened: true, count: ids.length, seedHex };
    });
  }

  async isOpen(eventId: string): Promise<boolean> {
    const room = await this.db
      .selectFrom('waiting_room_rooms')
      .select('opened_at')
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return Boolean(room?.opened_at);
  }

  async place(eventId: string, placeId: string, now: Date, rate: number): Promise<PlaceState> {
    const row = await this.db
      .selectFrom('waiting_room_places as p')
      .innerJoin('waiting_room_rooms as r', 'r.event_id', 'p.event_id')
      .select([
        'p.email',
        'p.score',
        'p.admitted_at',
        'r.opened_at',
        'r.admitted_base',
        'r.anchor_ms',
        'r.rate',
      ])
      .select((eb) => [
        eb
          .selectFrom('waiting_room_places as o')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('o.event_id', '=', 'p.event_id')
          .whereRef('o.score', '<', 'p.score')
          .as('rank'),
        eb
          .selectFrom('waiting_room_places as t')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('t.event_id', '=', 'p.event_id')
          .where('t.score', 'is not', null)
          .as('total'),
      ])
      .where('p.place_id', '=', placeId)
      .where('p.event_id', '=', eventId)
      .executeTakeFirst();
    if (!row) return { kind: 'unknown' };
    if (!row.opened_at || row.score === null) return { kind: 'prequeue' };
    const was = { base: Number(row.admitted_base), anchorMs: Number(row.anchor_ms), rate: row.rate };
    const step = advance(was, now.getTime(), rate, Number(row.total));
    // Another instance may have moved the cursor meanwhile: then its move stands.
    if (step.changed) await this.#moveCursor(eventId, was, step.cursor);
    const rank = Number(row.rank);
    let admittedAt = row.admitted_at ? new Date(row.admitted_at).getTime() : null;
    let fresh = false;
    if (rank < step.admitted && admittedAt === null) {
      const set = await this.db
        .updateTable('waiting_room_places')
        .set({ admitted_at: now })
        .where('place_id', '=', placeId)
        .where('admitted_at', 'is', null)
        .returning('admitted_at')
        .executeTakeFirst();
      fresh = set !== undefined;
      admittedAt = now.getTime();
    }
    return {
      kind: 'queued',
      rank,
      admitted: step.admitted,
      total: Number(row.total),
      cursor: step.cursor,
      email: row.email,
      admittedAt,
      fresh,
    };
  }

  async #moveCursor(eventId: string, was: { base: number; anchorMs: number; rate: number }, to: typeof was) {
    await this.db
      .updateTable('waiting_room_rooms')
      .set({ admitted_base: to.base, anchor_ms: to.anchorMs, rate: to.rate })
      .where('event_id', '=', eventId)
      .where('admitted_base', '=', was.base)
      .where('anchor_ms', '=', was.anchorMs)
      .where('rate', '=', was.rate)
      .execute();
  }

  async spendProof(proof: string, now: Date, expiresAt: Date): Promise<boolean> {
    await sql`delete from waiting_room_proofs where proof in (
      select proof from waiting_room_proofs where expires_at < ${now} limit 100)`.execute(this.db);
    const r = await this.db
      .insertInto('waiting_room_proofs')
      .values({ proof, expires_at: expiresAt })
      .onConflict((oc) => oc.column('proof').doNothing())
      .returning('proof')
      .executeTakeFirst();
    return r !== undefined;
  }
}

// The waiting room's tables, used when the service has no Redis (queue.repo.ts); only this
// module queries them (scripts/check-ownership.mjs reads the owner list from here).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns.js';

type Maybe<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** The tables the waiting-room module owns. */
export interface WaitingRoomTables {
  waiting_room_rooms: WaitingRoomRoomsTable;
  waiting_room_places: WaitingRoomPlacesTable;
  waiting_room_proofs: WaitingRoomProofsTable;
  waiting_room_verifications: WaitingRoomVerificationsTable;
}

/** One event's queue: its arrival counter, its opening, and the admission cursor. */
export interface WaitingRoomRoomsTable {
  event_id: string;
  next_seq: Generated<string | number>;
  opened_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  shuffle_seed: Maybe<string>;
  admitted_base: Generated<string | number>;
  anchor_ms: Generated<string | number>;
  rate: Generated<number>;
}

/**
 * A place: one per verified contact per event (its email, or its phone when `verified_by` is
 * `whatsapp`); `score` orders the queue (null in the pre-queue).
 */
export interface WaitingRoomPlacesTable {
  place_id: string;
  event_id: string;
  email: string;
  phone: Maybe<string>;
  verified_by: Generated<'email' | 'whatsapp'>;
  arrival_seq: string | number;
  score: Maybe<string | number>;
  admitted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  joined_at: Timestamp;
}

/** A solved challenge already spent on a join, until it would have expired anyway. */
export interface WaitingRoomProofsTable {
  proof: string;
  expires_at: Timestamp;
}

/** A one-time code sent to a contact: its HMAC (never the code), its tries, and when it was used. */
export interface WaitingRoomVerificationsTable {
  verification_id: string;
  event_id: string;
  email: string;
  phone: Maybe<string>;
  channel: 'email' | 'whatsapp';
  code_mac: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

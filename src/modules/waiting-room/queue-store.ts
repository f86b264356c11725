// The queue behind one interface, in Redis when the service has it (redis-store.ts: sorted sets
// and Lua scripts, shared by every instance) and in PostgreSQL otherwise (pg-store.ts).
import type { Cursor } from './admission.js';

export type Channel = 'email' | 'whatsapp';

/** A one-time code on its way to a contact: only the code's HMAC is kept. */
export interface Verification {
  id: string;
  email: string;
  phone: string | null;
  channel: Channel;
  codeMac: string;
  expiresAt: Date;
}

/** What a code given back for a verification did. */
export type Verified =
  /** No such verification for this event, or its code was accepted already. */
  | { kind: 'unknown' }
  | { kind: 'expired' }
  /** The wrong codes used it up (this one included). */
  | { kind: 'spent' }
  | { kind: 'wrong'; attemptsLeft: number }
  /** The verified contact's place: made now, or `existing`. */
  | { kind: 'placed'; placeId: string; existing: boolean };

export interface VerifyInput {
  verificationId: string;
  /** The HMAC of the code given back. */
  codeMac: string;
  /** The id a new place gets. */
  placeId: string;
  now: Date;
  maxAttempts: number;
  /** How long the room's state is kept (Redis expires its keys then). */
  keepUntil: Date;
}

export type PlaceState =
  | { kind: 'unknown' }
  | { kind: 'prequeue' }
  | {
      kind: 'queued';
      /** 0-based position in the queue. */
      rank: number;
      /** How many places at the head are admitted now. */
      admitted: number;
      total: number;
      cursor: Cursor;
      email: string;
      /** When this place was first seen admitted (its session runs from then); null while waiting. */
      admittedAt: number | null;
      /** This call saw the place admitted first. */
      fresh: boolean;
    };

export interface QueueStore {
  readonly kind: 'redis' | 'postgres';
  /** Keeps a verification until a little after it expires. */
  startVerification(eventId: string, v: Verification, now: Date): Promise<void>;
  /**
   * Checks a code given back, atomically: a wrong one counts against the verification; the right
   * one is accepted once and answers the verified contact's place, made at the end of the
   * pre-queue (before the opening) or of the queue (after it) when the contact has none.
   */
  verify(eventId: string, input: VerifyInput): Promise<Verified>;
  /**
   * Opens the room once: the pre-queue in the order `order` gives for the seed, at the head of the
   * queue, and the admission cursor started at `now`. `opened: false` when it was open already (or
   * another opener is at it); `seedHex` is the seed the order was drawn by: the one given, or, when
   * this call resumed an opening another instance began and left, the one that instance drew.
   */
  open(
    eventId: string,
    now: Date,
    rate: number,
    seedHex: string,
    order: (ids: string[], seedHex: string) => string[],
    keepUntil: Date,
  ): Promise<{ opened: boolean; count: number; seedHex: string }>;
  /** Whether the room is open, its pre-queue in place. */
  isOpen(eventId: string): Promise<boolean>;
  /** A place's state at `now`, advancing the admission cursor at `rate` (admitPerMinute). */
  place(eventId: string, placeId: string, now: Date, rate: number, keepUntil: Date): Promise<PlaceState>;
  /** Spends a solved challenge (remembered until it expires): false when it was spent already. */
  spendProof(proof: string, now: Date, expiresAt: Date): Promise<boolean>;
}

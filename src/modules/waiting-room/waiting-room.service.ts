// The waiting room's use cases (docs/decisions/26-a-fair-waiting-room.md): the challenge, a
// place's status with its admission token, and the opening that shuffles the pre-queue.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import * as audit from '../audit/audit.service.js';
import { secondsUntil } from './admission.js';
import { newChallenge } from './pow.js';
import type { QueueStore } from './queue-store.js';
import { admissionToken, placeOfStatusToken } from './queue-tokens.js';
import type { RoomEvent, RoomSettings } from './room-settings.js';
import { newSeed, shuffledOrder } from './shuffle.js';
import type { RoomMetrics } from './waiting-room.metrics.js';

export interface WaitingRoomDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly secretsKey: Buffer;
  /** The key ALTCHA challenges are signed with. */
  readonly powSecret: string;
  readonly powMaxNumber: number;
  readonly joinsPerAddressMinute: number;
  readonly store: QueueStore;
  readonly settings: RoomSettings;
  readonly metrics: RoomMetrics;
  readonly rateLimiter: RateLimiter;
  /**
   * Draws the one-time code of a verification (crypto.randomInt, six digits; the service's wiring
   * always uses that, whatever the id). The drop simulation gives its own, to read codes without mail.
   */
  readonly newCode: (verificationId: string) => string;
  /** The key codes are kept under (an HMAC), drawn from SECRETS_KEY. */
  readonly codeKey: Buffer;
  /** Whether codes may go by WhatsApp (the sender and WHATSAPP_CODE_TEMPLATE are configured). */
  readonly sendsCodesByWhatsApp: boolean;
}

export type OnRoom = RoomEvent & { onSale: NonNullable<RoomEvent['onSale']> };

/** The event behind `slug` when its waiting room is on; 404 `waiting_room_not_found` otherwise. */
export async function roomOf(deps: WaitingRoomDeps, slug: string): Promise<OnRoom> {
  const ev = await deps.settings.get(slug);
  if (!ev?.onSale?.waitingRoom.enabled)
    throw notFound('this event has no waiting room', 'waiting_room_not_found');
  return ev as OnRoom;
}

const opensAtMs = (ev: OnRoom) =>
  ev.onSale.opensAt ? Date.parse(ev.onSale.opensAt) : Number.NEGATIVE_INFINITY;

/** A room's state is kept (Redis expires its keys) this long after the event's last day. */
export const ROOM_KEPT_AFTER_END_MS = 8 * 86_400_000;

/** Until when the room's state is kept: a week after the event's last day, or from now when that is past or unknown. */
export const keepUntil = (ev: OnRoom, now: Date) =>
  new Date(Math.max(ev.endsAtMs ?? now.getTime(), now.getTime()) + ROOM_KEPT_AFTER_END_MS);

export async function challenge(deps: WaitingRoomDeps, slug: string) {
  const ev = await roomOf(deps, slug);
  return newChallenge(deps.powSecret, deps.powMaxNumber, ev.id, deps.clock.now());
}

/**
 * Opens the room once `opensAt` has passed: the pre-queue is ordered by HMAC-SHA256 of a fresh
 * random seed and each place id (a uniform shuffle), and the seed goes to the audit log so the
 * order can be checked afterwards. Whichever instance gets there first opens it; the others find it open.
 */
export async function openIfDue(deps: WaitingRoomDeps, ev: OnRoom, now: Date): Promise<void> {
  if (now.getTime() < opensAtMs(ev) || (await deps.store.isOpen(ev.id))) return;
  const rate = ev.onSale.waitingRoom.admitPerMinute;
  const r = await deps.store.open(
    ev.id,
    now,
    rate,
    newSeed().toString('hex'),
    (ids, seedHex) => shuffledOrder(Buffer.from(seedHex, 'hex'), ids),
    keepUntil(ev, now),
  );
  if (!r.opened) return;
  const seedHex = r.seedHex;
  deps.logger.info({ eventId: ev.id, preQueue: r.count, seed: seedHex }, 'waiting room opened');
  await audit.recordChange(deps.db, deps, {
    accountId: ev.accountId,
    mode: ev.mode,
    actor: audit.systemActor('waiting_room'),
    action: 'event.queue_open',
    target: { type: 'event', id: ev.id },
    after: {
      shuffleSeed: seedHex,
      order: 'pre-queue by HMAC-SHA256(shuffleSeed as bytes, placeId) ascending, hex',
      preQueue: r.count,
      opensAt: ev.onSale.opensAt,
      openedAt: now.toISOString(),
    },
  });
}

export type QueueStatus =
  | {
      state: 'waiting';
      position: number | null;
      ahead: number | null;
      estimatedWaitSeconds: number | null;
      opensAt: string | null;
    }
  | {
      state: 'admitted';
      position: number;
      ahead: 0;
      estimatedWaitSeconds: 0;
      admissionToken: string;
      admissionExpiresAt: string;
    }
  | { state: 'closed'; position: number; ahead: 0; estimatedWaitSeconds: 0 };

/** Where a place stands now; when admitted, its admission token (valid sessionMinutes from its admission). */
export async function status(deps: WaitingRoomDeps, slug: string, token: string): Promise<QueueStatus> {
  const ev = await roomOf(deps, slug);
  const placeId = placeOfStatusToken(deps.secretsKey, ev.id, token);
  if (!placeId) throw badRequest('invalid_queue_token');
  const now = deps.clock.now();
  const { admitPerMinute, sessionMinutes } = ev.onSale.waitingRoom;
  let st = await deps.store.place(ev.id, placeId, now, admitPerMinute, keepUntil(ev, now));
  if (st.kind === 'prequeue' && now.getTime() >= opensAtMs(ev)) {
    await openIfDue(deps, ev, now);
    st = await deps.store.place(ev.id, placeId, now, admitPerMinute, keepUntil(ev, now));
  }
  if (st.kind === 'unknown') throw badRequest('invalid_queue_token');
  if (st.kind === 'prequeue')
    return {
      state: 'waiting',
      position: null,
      ahead: null,
      estimatedWaitSeconds: null,
      opensAt: ev.onSale.opensAt,
    };
  deps.metrics.queue(ev.id, st.total - st.admitted, st.admitted);
  if (st.fresh) deps.metrics.admitted();
  const position = st.rank + 1;
  if (st.rank >= st.admitted || st.admittedAt === null)
    return {
      state: 'waiting',
      position,
      ahead: st.rank - st.admitted,
      estimatedWaitSeconds: secondsUntil(st.cursor, st.rank, now.getTime()),
      opensAt: ev.onSale.opensAt,
    };
  const until = st.admittedAt + sessionMinutes * 60_000;
  if (now.getTime() >= until) return { state: 'closed', position, ahead: 0, estimatedWaitSeconds: 0 };
  return {
    state: 'admitted',
    position,
    ahead: 0,
    estimatedWaitSeconds: 0,
    admissionToken: admissionToken(deps.secretsKey, ev.id, placeId, st.email, until),
    admissionExpiresAt: new Date(Math.floor(until / 1000) * 1000).toISOString(),
  };
}

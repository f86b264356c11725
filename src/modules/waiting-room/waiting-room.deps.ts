// The waiting room's dependencies, built once by createDeps: the queue in Redis when the service
// has Redis, else in PostgreSQL; the room settings remembered by slug; the metrics.
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { findEventBySlug } from '../events/events.service.js';
import { codeKey, newCode } from './one-time-code.js';
import { powSecret } from './pow.js';
import { PgQueueStore } from './queue.repo.js';
import { RedisQueueStore } from './redis-store.js';
import { RoomSettings } from './room-settings.js';
import { roomMetrics } from './waiting-room.metrics.js';
import type { WaitingRoomDeps } from './waiting-room.service.js';

export function createWaitingRoom(
  config: Config,
  base: {
    db: Kysely<Database>;
    clock: Clock;
    ids: Ids;
    logger: Logger;
    redis: Redis | undefined;
    metrics: { registry: Registry };
    rateLimiter: RateLimiter;
  },
): WaitingRoomDeps {
  const { db, clock } = base;
  const settings = new RoomSettings(
    async (slug) => {
      const e = await findEventBySlug(db, slug);
      if (!e) return undefined;
      const last = e.end_date ?? e.start_date;
      const lastMs = last === null ? Number.NaN : Date.parse(last);
      const endsAtMs = Number.isFinite(lastMs) ? lastMs : e.start_at ? new Date(e.start_at).getTime() : null;
      return { id: e.id, accountId: e.account_id, mode: e.mode, onSale: e.on_sale, endsAtMs };
    },
    () => clock.now().getTime(),
  );
  return {
    db,
    clock,
    ids: base.ids,
    logger: base.logger,
    secretsKey: config.secretsKey,
    powSecret: powSecret(config.secretsKey),
    powMaxNumber: config.waitingRoom.powMaxNumber,
    joinsPerAddressMinute: config.waitingRoom.joinsPerAddressMinute,
    store: base.redis ? new RedisQueueStore(base.redis) : new PgQueueStore(db),
    settings,
    metrics: roomMetrics(base.metrics.registry),
    rateLimiter: base.rateLimiter,
    newCode,
    codeKey: codeKey(config.secretsKey),
    sendsCodesByWhatsApp: config.whatsapp.sender !== undefined && config.whatsapp.codeTemplate !== undefined,
  };
}

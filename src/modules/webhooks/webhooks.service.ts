// Signed webhooks: one configuration per account and mode,
// a service-generated secret sealed at rest, deliveries queued in the transaction
// that caused them and sent once by a worker.
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import type { Config } from '../../config.js';
import type { Database, Mode, WebhookEventType } from '../../db/database.js';
import type { Kysely } from 'kysely';
import { defineJob, enqueueRows, jobRow, type JobRow } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../lib/db-handle.js';
import { badRequest } from '../../lib/errors.js';
import { decodeCursor, pageOf } from '../../lib/keyset-cursor.js';
import type { Ids } from '../../lib/ids.js';
import { open, seal } from '../../lib/secret-box.js';
import { isPublicAddress } from './address-check.js';
import { deliver, type Resolve } from './delivery.js';
import * as audit from '../audit/audit.service.js';
import * as repo from './webhooks.repo.js';

export const EVENT_TYPES: readonly WebhookEventType[] = [
  'registration.confirmed',
  'subscription.authenticated',
  'waitlist.offered',
];
export const DELIVERY_TIMEOUT_MS = 5000;

/** What a queued delivery carries: the envelope's id and time, and whom it is for. */
export interface DeliveryPayload {
  eventId: string;
  createdAt: string;
  accountId: string;
  mode: Mode;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** Best-effort, as callers are told: one attempt, no retries. */
export const webhookDeliveryJob = defineJob<DeliveryPayload>('webhook.deliver', { maxAttempts: 1 });

export type WebhookEvent = Omit<DeliveryPayload, 'eventId' | 'createdAt'>;

/** The outbox row of one delivery, with its envelope id and time. */
export function deliveryJobRow(deps: { clock: Clock; ids: Ids }, event: WebhookEvent): JobRow {
  return jobRow(deps, webhookDeliveryJob, {
    eventId: deps.ids.make('evt', 12),
    createdAt: deps.clock.now().toISOString(),
    ...event,
  });
}

export interface WebhookDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  config: Config;
  resolve?: Resolve;
}

export function validateUrl(value: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('invalid_webhook_url', 'url must be an absolute https URL');
  }
  if (url.username || url.password) throw badRequest('invalid_webhook_url', 'url must not carry credentials');
  if (allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw badRequest('invalid_webhook_url', 'url must be http or https');
    return url.toString();
  }
  if (url.protocol !== 'https:') throw badRequest('invalid_webhook_url', 'url must use https');
  // Other ports reach services that are not web hooks (mail, databases, admin consoles).
  if (url.port !== '' && url.port !== '443' && url.port !== '80')
    throw badRequest('invalid_webhook_url', 'url must use port 443 (or 80)');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    isIP(host)
      ? !isPublicAddress(host)
      : host === 'localhost' ||
        host.endsWith('.localhost') ||
        !host.includes('.') ||
        /\.(local|internal|lan|home|corp|invalid|test|example)$/.test(host)
  ) {
    throw badRequest('invalid_webhook_url', 'url must point at a public host');
  }
  return url.toString();
}

function presentConfig(row: { url: string; enabled: boolean; events: WebhookEventType[] }) {
  return { url: row.url, enabled: row.enabled, secretSet: true, events: row.events };
}

export async function getConfig(db: Db, accountId: string, mode: Mode) {
  const row = await repo.findConfig(db, accountId, mode);
  return row ? presentConfig(row) : null;
}

export async function putConfig(
  deps: WebhookDeps,
  p: { userId: string; keyId: string; mode: Mode },
  input: {
    url?: string | undefined;
    enabled?: boolean | undefined;
    rotateSecret?: boolean | undefined;
    events?: string[] | undefined;
  },
): Promise<{ data: ReturnType<typeof presentConfig>; secret?: string }> {
  const accountId = p.userId;
  const mode = p.mode;
  const existing = await repo.findConfig(deps.db, accountId, mode);
  if (!existing && input.url === undefined)
    throw badRequest('invalid_request', 'url is required to set up a webhook');
  let events = existing?.events ?? ['registration.confirmed'];
  if (input.events !== undefined) {
    const unknown = input.events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
    if (unknown.length > 0)
      throw badRequest(
        'invalid_event_type',
        `unknown event type ${unknown.join(', ')}; allowed: ${EVENT_TYPES.join(', ')}`,
      );
    if (input.events.length === 0)
      throw badRequest('invalid_event_type', 'events must name at least one event type');
    events = [...new Set(input.events)] as WebhookEventType[];
  }
  const url =
    input.url === undefined ? existing!.url : validateUrl(input.url, deps.config.webhookAllowPrivateUrls);
  const newSecret = !existing || input.rotateSecret === true ? `whsec_${deps.ids.secret(32)}` : undefined;
  const now = deps.clock.now();
  const row = {
    account_id: accountId,
    mode,
    url,
    enabled: input.enabled ?? true,
    events: JSON.stringify(events),
    secret_sealed: newSecret ? seal(deps.config.secretsKey, newSecret) : existing!.secret_sealed,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  await deps.db.transaction().execute(async (trx) => {
    await repo.upsertConfig(trx, row);
    // The signing secret never enters the log: only that it was rotated.
    const before = existing ? { url: existing.url, enabled: existing.enabled, events: existing.events } : {};
    const change = audit.changedFields(before, {
      url,
      enabled: row.enabled,
      events,
      ...(newSecret && existing ? { secretRotatedAt: now.toISOString() } : {}),
    });
    await audit.recordChange(trx, deps, {
      accountId,
      mode,
      actor: audit.actorOfKey(p),
      action: existing ? 'webhook_config.update' : 'webhook_config.create',
      target: { type: 'webhook_config', id: mode },
      before: existing ? change.before : null,
      after: change.after,
    });
  });
  return {
    data: presentConfig({ url, enabled: row.enabled, events }),
    ...(newSecret ? { secret: newSecret } : {}),
  };
}

export async function deleteConfig(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids },
  p: { userId: string; keyId: string; mode: Mode },
): Promise<void> {
  const existing = await repo.findConfig(deps.db, p.userId, p.mode);
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteConfig(trx, p.userId, p.mode);
    if (existing) {
      await audit.recordChange(trx, deps, {
        accountId: p.userId,
        mode: p.mode,
        actor: audit.actorOfKey(p),
        action: 'webhook_config.delete',
        target: { type: 'webhook_config', id: p.mode },
        before: { url: existing.url, enabled: existing.enabled, events: existing.events },
      });
    }
  });
}

/** Queues a delivery in the caller's transaction when the account listens for `type`. */
export async function emit(trx: Db, deps: { clock: Clock; ids: Ids }, event: WebhookEvent): Promise<void> {
  const config = await repo.findConfig(trx, event.accountId, event.mode);
  if (!config || !config.enabled || !config.events.includes(event.type)) return;
  await enqueueRows(trx, deps, [deliveryJobRow(deps, event)]);
}

export function signature(secret: string, timestamp: number, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export async function deliveryJob(deps: WebhookDeps, payload: DeliveryPayload): Promise<void> {
  const config = await repo.findConfig(deps.db, payload.accountId, payload.mode);
  // Paused, removed or unsubscribed since: nothing to send.
  if (!config || !config.enabled || !config.events.includes(payload.type)) return;
  const body = JSON.stringify({
    id: payload.eventId,
    type: payload.type,
    createdAt: payload.createdAt,
    mode: payload.mode,
    data: payload.data,
  });
  const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
  const result = await deliver({
    url: config.url,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'ticketing-service-webhooks/1',
      'x-service-signature': signature(open(deps.config.secretsKey, config.secret_sealed), timestamp, body),
      'x-service-timestamp': String(timestamp),
      'x-service-event-id': payload.eventId,
    },
    timeoutMs: DELIVERY_TIMEOUT_MS,
    allowPrivate: deps.config.webhookAllowPrivateUrls,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  await repo.insertDelivery(deps.db, {
    id: deps.ids.make('dlv', 12),
    account_id: payload.accountId,
    mode: payload.mode,
    event_id: payload.eventId,
    type: payload.type,
    url: config.url,
    status_code: result.statusCode,
    error: result.error,
    duration_ms: result.durationMs,
    created_at: deps.clock.now(),
  });
}

/** Delivery records are kept this long, then pruned by the workers. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;

export function pruneDeliveries(db: Db, now: Date): Promise<number> {
  return repo.pruneDeliveries(db, new Date(now.getTime() - DELIVERY_RETENTION_MS));
}

/** One page of delivery attempts, newest first; `count` is the total kept. */
export async function pageDeliveries(
  db: Db,
  accountId: string,
  mode: Mode,
  page: { limit: number; startingAfter?: string | undefined },
) {
  const rows = await repo.pageDeliveries(db, accountId, mode, page.limit, decodeCursor(page.startingAfter));
  const out = pageOf(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }));
  return {
    items: out.items.map(presentDelivery),
    hasMore: out.hasMore,
    nextCursor: out.nextCursor,
    count: await repo.countDeliveries(db, accountId, mode),
  };
}

type DeliveryRow = Awaited<ReturnType<typeof repo.listDeliveries>>[number];

function presentDelivery(r: DeliveryRow) {
  return {
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    url: r.url,
    statusCode: r.status_code,
    error: r.error,
    durationMs: r.duration_ms,
    ok: r.status_code !== null && r.status_code >= 200 && r.status_code < 300,
    createdAt: r.created_at.toISOString(),
  };
}

export async function listDeliveries(db: Db, accountId: string, mode: Mode) {
  return (await repo.listDeliveries(db, accountId, mode, 100)).map(presentDelivery);
}

/** Delivery attempts that failed since `since` (for /metrics). */
export const countFailedDeliveriesSince = (db: Kysely<Database>, since: Date) =>
  repo.countFailedDeliveriesSince(db, since);

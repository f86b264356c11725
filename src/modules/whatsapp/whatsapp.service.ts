// WhatsApp delivery statuses: what the Cloud API's webhooks report is applied to the
// ticket's row (furthest status wins: webhooks come in any order, duplicated, and
// `delivered` may be skipped), and shown on the registration as `channels`.
import type { Kysely } from 'kysely';
import type { Database, WhatsAppStatus } from '../../db/database.js';
import * as repo from './whatsapp.repo.js';

export interface Channel {
  channel: 'whatsapp';
  status: WhatsAppStatus;
  at: string;
  /** The Cloud API's error code of a refusal (`unsent`) or a `failed` status. */
  errorCode: number | null;
}

/** The channels each registration's ticket went out on besides mail (registrations without any are absent). */
export async function channelsFor(
  db: Kysely<Database>,
  registrationIds: readonly string[],
): Promise<Map<string, Channel[]>> {
  const out = new Map<string, Channel[]>();
  for (const r of await repo.byRegistrations(db, registrationIds)) {
    out.set(r.registration_id, [
      { channel: 'whatsapp', status: r.status, at: r.status_at.toISOString(), errorCode: r.error_code },
    ]);
  }
  return out;
}

const WEBHOOK_STATUSES = new Set<string>(['sent', 'delivered', 'read', 'failed']);

interface StatusItem {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  biz_opaque_callback_data?: unknown;
  errors?: { code?: unknown }[];
}

/** The status items of a webhook body (`entry[].changes[].value.statuses[]`); anything else is skipped. */
export function statusItems(body: unknown): StatusItem[] {
  const items: StatusItem[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown })?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const statuses = (change as { value?: { statuses?: unknown } })?.value?.statuses;
      if (Array.isArray(statuses))
        items.push(...(statuses.filter((s) => s !== null && typeof s === 'object') as StatusItem[]));
    }
  }
  return items;
}

/** Applies a verified webhook's statuses; answers how many changed a ticket's row. */
export async function applyStatuses(db: Kysely<Database>, body: unknown, now: Date): Promise<number> {
  let applied = 0;
  for (const s of statusItems(body)) {
    if (
      typeof s.id !== 'string' ||
      s.id.length > 200 ||
      typeof s.status !== 'string' ||
      !WEBHOOK_STATUSES.has(s.status)
    )
      continue;
    // Unix seconds, as a string; a missing or odd one is taken as now.
    const seconds =
      typeof s.timestamp === 'string' && /^\d{1,12}$/.test(s.timestamp) ? Number(s.timestamp) : undefined;
    const code = s.status === 'failed' && Array.isArray(s.errors) ? s.errors[0]?.code : undefined;
    const changed = await repo.advance(db, {
      wamid: s.id,
      opaque:
        typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data.slice(0, 200) : undefined,
      status: s.status as WhatsAppStatus,
      at: seconds === undefined ? now : new Date(seconds * 1000),
      errorCode:
        typeof code === 'number' && Number.isSafeInteger(code) && Math.abs(code) < 2 ** 31 ? code : null,
    });
    if (changed) applied++;
  }
  return applied;
}

// Which events a key may act on and read: its own account and mode, and for a browser's
// checkout key only what is on sale.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { assertOwned, type KeyPrincipal } from '../../http/auth.js';
import { notFound } from '../../lib/errors.js';
import type { EventReads } from './event-reads.js';
import * as repo from './events.repo.js';
import type { EventRow } from './events.repo.js';

export async function loadOwnedEvent(db: Kysely<Database>, p: KeyPrincipal, id: string): Promise<EventRow> {
  const row = await repo.findEvent(db, id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return row!;
}

/** For registration: the owned event and the seats taken on its own counter (read with others asked for at the same time). */
export async function loadOwnedEventWithTaken(
  reads: EventReads,
  p: KeyPrincipal,
  id: string,
): Promise<EventRow & { seats_taken: number }> {
  const row = await reads.read(id);
  assertOwned(p, row && { accountId: row.account_id, mode: row.mode });
  return { ...row!, seats_taken: Number(row!.seats_taken ?? 0) };
}

/**
 * A checkout key (a browser) reads only published events, and in test mode also the
 * account's draft test events; a live draft does not exist for it (404).
 */
function visibleTo(p: KeyPrincipal, row: Pick<EventRow, 'mode' | 'status'>): boolean {
  return p.keyClass !== 'checkout' || row.mode === 'test' || row.status === 'published';
}

/** An event the key may read: its own account and mode, and visible to its class. */
export async function loadReadableEvent(
  db: Kysely<Database>,
  p: KeyPrincipal,
  id: string,
): Promise<EventRow> {
  const row = await loadOwnedEvent(db, p, id);
  if (!visibleTo(p, row)) throw notFound('no such event', 'event_not_found');
  return row;
}

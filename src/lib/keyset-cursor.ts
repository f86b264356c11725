// Cursors for lists ordered by (created_at, id): the cursor names the last item of a
// page by its time and id, so it stays valid when that item is pruned meanwhile.
// Opaque to callers (base64url of "<epoch ms>.<id>").
import { badRequest } from './errors.js';

export interface KeysetPosition {
  at: Date;
  id: string;
}

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.getTime()}.${id}`, 'utf8').toString('base64url');
}

/** undefined for no cursor; 400 `invalid_cursor` for one this service did not make. */
export function decodeCursor(value: string | undefined): KeysetPosition | undefined {
  if (value === undefined) return undefined;
  const text = /^[A-Za-z0-9_-]{1,600}$/.test(value) ? Buffer.from(value, 'base64url').toString('utf8') : '';
  const m = /^(\d{1,15})\.(\S{1,400})$/.exec(text);
  if (!m) throw badRequest('invalid_cursor', 'startingAfter must be the nextCursor of an earlier page');
  return { at: new Date(Number(m[1])), id: m[2]! };
}

/** One page out of `limit + 1` rows read: the rows to answer, hasMore and nextCursor. */
export function pageOf<T>(rows: readonly T[], limit: number, position: (row: T) => { at: Date; id: string }) {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = items[items.length - 1];
  return {
    items,
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor(position(last).at, position(last).id) : null,
  };
}

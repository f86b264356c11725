// Lists are pages: `limit` (default 100, at most 1,000) and
// `startingAfter` (a previous page's `nextCursor`); answers carry `hasMore` and
// `nextCursor`. One definition for every list's query and answer fields.
import { Type } from 'typebox';
import { badRequest } from '../lib/errors.js';

export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 1000;

export const PageQuery = {
  limit: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      maxLength: 4,
      description: `Items per page, 1 to ${PAGE_MAX} (default ${PAGE_DEFAULT}).`,
    }),
  ),
  startingAfter: Type.Optional(
    Type.String({ maxLength: 100, description: 'The `nextCursor` of the previous page.' }),
  ),
};

export const PageFields = {
  hasMore: Type.Boolean({ description: 'More items follow; read them with `startingAfter=<nextCursor>`.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Cursor of the last item on this page when hasMore, else null.',
  }),
};

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return PAGE_DEFAULT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > PAGE_MAX)
    throw badRequest('invalid_limit', `limit must be a whole number from 1 to ${PAGE_MAX}`);
  return n;
}

/** A page from `limit + 1` rows read in order: the first `limit`, whether more follow, and the cursor to read on. */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  cursorOf: (row: T) => string,
): { items: T[]; hasMore: boolean; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { items, hasMore, nextCursor: hasMore ? cursorOf(items[items.length - 1]!) : null };
}

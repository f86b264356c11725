// Page parameters for the ledger and payout lists (product-decisions §11): `limit`
// (default 100, at most 1,000) and `startingAfter` (a previous page's `nextCursor`).
import { Type } from 'typebox';
import { badRequest } from '../../shared/errors.js';
import { PAGE_DEFAULT, PAGE_MAX } from './ledger.service.js';

export const ModeQuery = Type.Optional(
  Type.Union([Type.Literal('test'), Type.Literal('live')], {
    description: 'Which ledger: `live` (default) is real money; `test` is the sandbox ledger of test-mode sales and sandbox payouts.',
  }),
);

export const PageQuery = {
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', maxLength: 4, description: `Items per page, 1 to ${PAGE_MAX} (default ${PAGE_DEFAULT}).` })),
  startingAfter: Type.Optional(Type.String({ maxLength: 20, description: 'The `nextCursor` of the previous page.' })),
};

export const PageFields = {
  hasMore: Type.Boolean({ description: 'More items follow; read them with `startingAfter=<nextCursor>`.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the last item on this page when hasMore, else null.' }),
};

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return PAGE_DEFAULT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > PAGE_MAX) throw badRequest('invalid_limit', `limit must be a whole number from 1 to ${PAGE_MAX}`);
  return n;
}

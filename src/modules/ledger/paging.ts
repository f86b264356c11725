// The ledger and payout lists' mode parameter (page parameters are in http/paging.ts).
import { Type } from 'typebox';

export const ModeQuery = Type.Optional(
  Type.Union([Type.Literal('test'), Type.Literal('live')], {
    description:
      'Which ledger: `live` (default) is real money; `test` is the sandbox ledger of test-mode sales and sandbox payouts.',
  }),
);

// Payouts to UPI for the session's account, the sandbox routes that settle test-mode
// payouts, and the staff sweep of payouts stuck in processing.
// The payouts operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { PayoutsRouteDeps } from './routes/payouts-shared.js';
import { createPayout } from './routes/create-payout.js';
import { listPayouts } from './routes/list-payouts.js';
import { getPayout } from './routes/get-payout.js';
import { sandboxSettlePayout } from './routes/sandbox-settle-payout.js';
import { sweepPayouts } from './routes/sweep-payouts.js';

export const payoutsRoutes = routes<PayoutsRouteDeps>([
  createPayout,
  listPayouts,
  getPayout,
  sandboxSettlePayout,
  sweepPayouts,
]);

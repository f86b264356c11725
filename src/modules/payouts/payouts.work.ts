// The payouts' background work: sending each payout to RazorpayX (or the sandbox).
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import { sendPayoutJob } from './payout-gateway.service.js';
import { payoutJob, type PayoutDeps } from './payouts.service.js';

export function payoutsWork(deps: { payoutDeps: PayoutDeps }): ModuleWork {
  return { jobs: [onJob(payoutJob, (payload) => sendPayoutJob(deps.payoutDeps, payload))] };
}

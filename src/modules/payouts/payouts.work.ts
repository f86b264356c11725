// The payouts' background work: sending each payout to RazorpayX (or the sandbox).
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import { payoutJob, sendPayoutJob, type PayoutDeps } from './payouts.service.js';

export function payoutsWork(deps: { payoutDeps: PayoutDeps }): ModuleWork {
  return { jobs: [onJob(payoutJob, (payload) => sendPayoutJob(deps.payoutDeps, payload))] };
}

// Reconciliation's background work: refunding payments that belong to no booking.
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import { refundStrayJob, strayRefundJob, type StrayDeps } from './stray-payments.js';

export function reconciliationWork(deps: { registerDeps: StrayDeps }): ModuleWork {
  return { jobs: [onJob(strayRefundJob, (payload) => refundStrayJob(deps.registerDeps, payload))] };
}

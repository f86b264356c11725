// The registrations' background work: refunds the gateway owes a booking (claimed first).
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import type { RegisterDeps } from './register-deps.js';
import { refundJob, refundPaymentJob } from './registrations.jobs.js';

export function registrationsWork(deps: { registerDeps: RegisterDeps }): ModuleWork {
  return { jobs: [onJob(refundPaymentJob, (payload) => refundJob(deps.registerDeps, payload))] };
}

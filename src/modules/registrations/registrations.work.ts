// The registrations' background work: refunds the gateway owes a booking (claimed first), and
// the deadlines of bookings awaiting payment outside the gateway (their jobs and a sweep).
import { onJob, type ModuleWork } from '../../jobs/jobs.js';
import { lapseIfDue, remindIfDue, sweepOfflineDeadlines } from './offline-deadlines.js';
import { offlineLapseJob, offlineReminderJob } from './offline-deadlines.jobs.js';
import type { RegisterDeps } from './register-deps.js';
import { refundJob, refundPaymentJob } from './registrations.jobs.js';

export function registrationsWork(deps: { registerDeps: RegisterDeps }): ModuleWork {
  const d = deps.registerDeps;
  return {
    jobs: [
      onJob(refundPaymentJob, (payload) => refundJob(d, payload)),
      onJob(offlineLapseJob, async (payload) => {
        await lapseIfDue(d, payload.registrationId);
      }),
      onJob(offlineReminderJob, async (payload) => {
        await remindIfDue(d, payload.registrationId);
      }),
    ],
    maintenance: [
      { name: 'offline payment deadlines', everyMs: 60_000, run: () => sweepOfflineDeadlines(d) },
    ],
  };
}

// The timed jobs of a booking awaiting payment outside the gateway, queued with it at `payBy`
// and a day before (docs/decisions/24-payment-outside-the-gateway.md); offline-deadlines.ts runs them.
import { defineJob } from '../../jobs/queue.js';

export const offlineLapseJob = defineJob<{ registrationId: string }>('offline.lapse');
export const offlineReminderJob = defineJob<{ registrationId: string }>('offline.reminder');

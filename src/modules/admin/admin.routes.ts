// Platform staff only: background jobs, organiser access and requests for it, an event's ticket
// mail, members added by hand; one operation per file under routes/.
import { routes } from '../../http/operation.js';
import { addMemberByHand } from './routes/add-member-by-hand.js';
import type { AdminDeps } from './routes/admin.js';
import { declinePublishingRequest } from './routes/decline-publishing-request.js';
import { grantPublishingRequest } from './routes/grant-publishing-request.js';
import { listJobs } from './routes/list-jobs.js';
import { listPublishingRequests } from './routes/list-publishing-requests.js';
import { resetTwoFactor } from './routes/reset-two-factor.js';
import { retryJob } from './routes/retry-job.js';
import { setEventTicketEmails } from './routes/set-event-ticket-emails.js';
import { setOrganiserAccess } from './routes/set-organiser-access.js';

export const adminRoutes = routes<AdminDeps>([
  listJobs,
  retryJob,
  setOrganiserAccess,
  listPublishingRequests,
  grantPublishingRequest,
  declinePublishingRequest,
  setEventTicketEmails,
  addMemberByHand,
  resetTwoFactor,
]);

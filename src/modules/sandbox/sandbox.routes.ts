// Sandbox routes: test keys play the buyer and the gateway, move their account's test
// clock and read the mails test mode kept. Live keys get 403.
// The sandbox operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { SandboxRouteDeps } from './routes/sandbox-shared.js';
import { sandboxPay } from './routes/sandbox-pay.js';
import { sandboxNotifyOrderPaid } from './routes/sandbox-notify-order-paid.js';
import { sandboxAuthenticateSubscription } from './routes/sandbox-authenticate-subscription.js';
import { sandboxSubscriptionEvent } from './routes/sandbox-subscription-event.js';
import { sandboxMoveClock } from './routes/sandbox-move-clock.js';
import { sandboxResetClock } from './routes/sandbox-reset-clock.js';
import { sandboxListEmails } from './routes/sandbox-list-emails.js';

export const sandboxRoutes = routes<SandboxRouteDeps>([
  sandboxPay,
  sandboxNotifyOrderPaid,
  sandboxAuthenticateSubscription,
  sandboxSubscriptionEvent,
  sandboxMoveClock,
  sandboxResetClock,
  sandboxListEmails,
]);

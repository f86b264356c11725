// The waitlist's API: joining (any key, nothing personal comes back), and the
// organiser's queue (full keys): read it, take someone off it. One operation per file under routes/.
import { routes } from '../../http/operation.js';
import { joinWaitlist } from './routes/join-waitlist.js';
import { listWaitlist } from './routes/list-waitlist.js';
import { removeWaitlistEntry } from './routes/remove-waitlist-entry.js';
import type { WaitlistDeps } from './waitlist.service.js';

export const waitlistRoutes = routes<WaitlistDeps>([joinWaitlist, listWaitlist, removeWaitlistEntry]);

// The event broadcast operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import { broadcast } from './routes/broadcast.js';
import type { BroadcastDeps } from './routes/broadcast-deps.js';
import { getBroadcast } from './routes/get-broadcast.js';

export const broadcastRoutes = routes<BroadcastDeps>([broadcast, getBroadcast]);

// The waiting room's public routes for the hosted page and the embed (no key). One operation per file under routes/.
import { routes } from '../../http/operation.js';
import { getQueueChallenge } from './routes/get-queue-challenge.js';
import { getQueueStatus } from './routes/get-queue-status.js';
import { joinQueue } from './routes/join-queue.js';
import { verifyQueue } from './routes/verify-queue.js';
import type { WaitingRoomDeps } from './waiting-room.service.js';

export const waitingRoomRoutes = routes<WaitingRoomDeps>([
  getQueueChallenge,
  joinQueue,
  verifyQueue,
  getQueueStatus,
]);

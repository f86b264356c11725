// The door (docs/decisions/15-the-door.md): door passes (full key), the roster and sync (a door pass or
// a full key), and the door screen itself with its own script, style and QR decoder. One operation
// per file under routes/.
import { routes } from '../../http/operation.js';
import type { DoorSyncDeps } from './door-sync.service.js';
import { createDoorPass } from './routes/create-door-pass.js';
import { getDoorAsset } from './routes/get-door-asset.js';
import { getDoorRoster } from './routes/get-door-roster.js';
import { getDoorServiceWorker } from './routes/get-door-service-worker.js';
import { listDoorPasses } from './routes/list-door-passes.js';
import { openDoorScreen } from './routes/open-door-screen.js';
import { revokeDoorPass } from './routes/revoke-door-pass.js';
import { syncDoorScans } from './routes/sync-door-scans.js';

export const doorRoutes = routes<DoorSyncDeps>([
  createDoorPass,
  listDoorPasses,
  revokeDoorPass,
  getDoorRoster,
  syncDoorScans,
  openDoorScreen,
  getDoorServiceWorker,
  getDoorAsset,
]);

// Staff views of reconciliation: the orders it watches and a sweep on demand.
// The reconciliation operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { ReconciliationRouteDeps } from './routes/reconciliation-shared.js';
import { listReconciliationOrders } from './routes/list-reconciliation-orders.js';
import { runReconciliationSweep } from './routes/run-reconciliation-sweep.js';

export const reconciliationRoutes = routes<ReconciliationRouteDeps>([
  listReconciliationOrders,
  runReconciliationSweep,
]);

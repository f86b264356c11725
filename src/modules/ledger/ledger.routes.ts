// The session's balance and ledger, and the staff recomputation check.
// The ledger operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { LedgerRouteDeps } from './routes/ledger-shared.js';
import { getBalance } from './routes/get-balance.js';
import { listLedgerEntries } from './routes/list-ledger-entries.js';
import { checkLedger } from './routes/check-ledger.js';

export const ledgerRoutes = routes<LedgerRouteDeps>([getBalance, listLedgerEntries, checkLedger]);

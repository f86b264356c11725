// GET /api/v1/audit-log: the account's audit log in the key's mode, a page at a time (routes/).
import { routes } from '../../http/operation.js';
import { type AuditDeps, listAuditLog } from './routes/list-audit-log.js';

export const auditRoutes = routes<AuditDeps>([listAuditLog]);

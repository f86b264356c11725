// The statements API: the bank statement upload (docs/decisions/24-payment-outside-the-gateway.md).
import { routes } from '../../http/operation.js';
import type { RegisterDeps } from '../registrations/register-deps.js';
import { uploadStatementOperation } from './routes/upload-statement.js';

export const statementsRoutes = routes<RegisterDeps>([uploadStatementOperation]);

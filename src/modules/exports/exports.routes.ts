// CSV exports for organisers' servers (full keys, the key's account and mode), one operation per
// file under routes/; the dashboard's download buttons call the same service
// (src/dashboard/pages/exports.routes.ts).
import { routes } from '../../http/operation.js';
import type { ExportDeps } from './exports.service.js';
import { exportGstDocuments } from './routes/export-gst-documents.js';
import { exportLedger } from './routes/export-ledger.js';
import { exportMembers } from './routes/export-members.js';
import { exportRegistrations } from './routes/export-registrations.js';

export const exportsRoutes = routes<ExportDeps>([
  exportRegistrations,
  exportMembers,
  exportLedger,
  exportGstDocuments,
]);

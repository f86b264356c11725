// The gst operations, one per file under routes/.
import { routes } from '../../http/operation.js';
import type { GstRouteDeps } from './routes/gst-shared.js';
import { getGstSettings } from './routes/get-gst-settings.js';
import { putGstSettings } from './routes/put-gst-settings.js';
import { getInvoice } from './routes/get-invoice.js';
import { getCreditNote } from './routes/get-credit-note.js';
import { getGstr1Summary } from './routes/get-gstr1-summary.js';

export const gstRoutes = routes<GstRouteDeps>([
  getGstSettings,
  putGstSettings,
  getInvoice,
  getCreditNote,
  getGstr1Summary,
]);

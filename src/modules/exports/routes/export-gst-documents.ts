import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { sendCsv } from '../csv-reply.js';
import { gstDocumentsExport } from '../exports.schemas.js';
import * as exportsService from '../exports.service.js';
import { gstDocumentsCsv } from '../gst-documents.service.js';

const examples: OperationExamples = {
  params: { from: '2026-11-01', to: '2026-12-31' },
  responses: {
    '200': [
      'number,kind,date,issued_at,financial_year,supplier_gstin,supplier_name,recipient_name,recipient_email,recipient_gstin,recipient_address,recipient_state,place_of_supply,supply_type,sac,description,quantity,rate_percent,taxable_value,cgst,sgst,utgst,igst,total,original_number,original_date,reason,event_id,registration_id,payment_id,test_mode',
      `TIXI2627-000001,tax_invoice,2026-11-25,2026-11-25T13:21:58+05:30,2026-27,27AAPFU0939F1ZV,Acme Events LLP,Asha Rao,asha@example.in,,,27-Maharashtra,27-Maharashtra,intra_state,9996,"Admission: Pune Tech Summit 2027 (General), 2027-01-16",1,18,422.88,38.06,38.06,0.00,0.00,499.00,,,,${EX.eventId},${EX.registrationId},${EX.paymentId},yes`,
      '',
    ].join('\r\n'),
  },
};

export const exportGstDocuments: Operation<exportsService.ExportDeps> = (app, deps) =>
  app.get(
    '/api/v1/gst/documents/export',
    {
      config: { auth: FULL_ONLY, examples },
      schema: { ...gstDocumentsExport, operationId: 'exportGstDocuments' },
    },
    async (req, reply) => sendCsv(reply, await gstDocumentsCsv(deps, keyPrincipal(req), req.query)),
  );

import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { sendCsv } from '../csv-reply.js';
import { ledgerExport } from '../exports.schemas.js';
import * as exportsService from '../exports.service.js';

const examples: OperationExamples = {
  params: { from: '2026-11-01', to: '2026-12-31' },
  responses: {
    '200': [
      'entry_id,created_at,kind,description,credit,debit,currency,source_type,source_id,payment_id,captured_at,available_from,state',
      `le_cL44snEjfAevTYDH3ql43,2026-11-25T13:21:58+05:30,ticket_sale,Ticket sale,499.00,,INR,registration,${EX.registrationId},,2026-11-25T13:21:58+05:30,2026-11-27T13:21:58+05:30,pending`,
      `le_b1uItqgL0i5ljSVoCBpo,2026-11-25T13:25:10+05:30,membership_payment,Membership payment,1200.00,,INR,membership,${EX.membershipId},${EX.paymentId},2026-11-25T13:25:10+05:30,2026-11-27T13:25:10+05:30,pending`,
      '',
    ].join('\r\n'),
  },
};

export const exportLedger: Operation<exportsService.ExportDeps> = (app, deps) =>
  app.get(
    '/api/v1/ledger/export',
    { config: { auth: FULL_ONLY, examples }, schema: { ...ledgerExport, operationId: 'exportLedger' } },
    async (req, reply) => sendCsv(reply, await exportsService.ledgerCsv(deps, keyPrincipal(req), req.query)),
  );

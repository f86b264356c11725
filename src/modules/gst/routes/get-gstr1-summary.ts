import { Type } from 'typebox';
import { lagHeaderValue, READ_POOL_NOTE, REPLICA_LAG_HEADER } from '../../../db/replica-lag.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import * as gst from '../documents.service.js';
import { Gstr1Supplier } from '../gst.schemas.js';
import { type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { GstRouteDeps } from './gst-shared.js';

const examples: OperationExamples = {
  params: { month: '2027-01' },
  responses: {
    '200': {
      success: true,
      data: { month: '2027-01', mode: 'test', from: '2027-01-01', to: '2027-02-01', suppliers: [] },
    },
  },
};

export const getGstr1Summary: Operation<GstRouteDeps> = (app, deps) =>
  app.get(
    '/api/v1/gst/gstr1',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'getGstr1Summary',
        tags: ['gst'],
        summary: 'A month’s documents summed for GSTR-1',
        description: [
          'The tax invoices, bills of supply and credit notes of the key’s account and mode issued in `month` (India time), per supplier GSTIN (only `gstin` when given). Amounts in rupees. Per GSTIN: `b2b` (table 4) invoices by recipient GSTIN, for buyers who gave one at registration (`billing.gstin`); `b2cl` (table 5) inter-state invoices to unregistered buyers above ₹1 lakh; `b2cs` (table 7) the other B2C invoices by place of supply and rate, net of their credit notes; `creditNotes.registered` (9B, cdnr) and `.unregistered` (9B, cdnur: against b2cl invoices); `exempt` (table 8) bills of supply net of their credit notes; `sac` (table 12) by SAC and rate, B2B and B2C apart, net of credit notes; `documents` (table 13) each series’ first and last number and count; `totals` net of credit notes.',
          'Shaped to help file; not a filing. Confirm with your tax adviser.',
          READ_POOL_NOTE,
        ].join('\n\n'),
        querystring: Type.Object(
          {
            month: Type.String({ maxLength: 7, description: 'YYYY-MM' }),
            gstin: Type.Optional(Type.String({ maxLength: 20 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                month: Type.String(),
                mode: Type.String(),
                from: Type.String({ description: 'First day (India time).' }),
                to: Type.String({ description: 'The day after the last.' }),
                suppliers: Type.Array(Gstr1Supplier),
              }),
            }),
            'The month’s documents summed per supplier.',
          ),
        },
      },
    },
    async (req, reply) => {
      const data = await gst.gstr1(deps.reads.db, keyPrincipal(req), req.query.month, req.query.gstin);
      reply.header(REPLICA_LAG_HEADER, lagHeaderValue(await deps.reads.lagSeconds()));
      return { success: true as const, data };
    },
  );

import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { sendCsv } from '../csv-reply.js';
import { registrationsExport } from '../exports.schemas.js';
import * as exportsService from '../exports.service.js';

const examples: OperationExamples = {
  params: { status: 'confirmed' },
  responses: {
    '200': [
      'registration_id,status,pending_reason,name,email,phone,ticket_type,track_number,track,quantity,team_members,amount,currency,payment_method,payment_reference,pay_by,paid_reference,paid_at,promo_code,invoice_number,credit_note_number,checked_in,checked_in_at,people_checked_in,ticket_code,booked_at,confirmed_at,cancelled_at,Company,other_answers',
      `${EX.registrationId},confirmed,,Rohan Das,rohan@example.in,,General,,,1,,499.00,INR,gateway,,,,,,TIXI2627-000004,,yes,2027-01-16T09:12:40+05:30,1,,2026-11-25T13:21:24+05:30,2026-11-25T13:21:58+05:30,,Acme,`,
      '',
    ].join('\r\n'),
  },
};

export const exportRegistrations: Operation<exportsService.ExportDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/registrations/export',
    {
      config: { auth: FULL_ONLY, examples },
      schema: { ...registrationsExport, operationId: 'exportRegistrations' },
    },
    async (req, reply) =>
      sendCsv(
        reply,
        await exportsService.registrationsCsv(deps, keyPrincipal(req), req.params.id, req.query),
      ),
  );

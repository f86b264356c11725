import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { sendCsv } from '../csv-reply.js';
import { membersExport } from '../exports.schemas.js';
import * as exportsService from '../exports.service.js';

const examples: OperationExamples = {
  params: { planId: EX.planId },
  responses: {
    '200': [
      'membership_id,name,email,phone,plan_id,plan,plan_kind,state,good_standing,status,valid_until,cancel_at_period_end,ended_at,source,subscription_id,joined_at',
      `${EX.membershipId},Meera Iyer,meera@example.in,'+919812345670,${EX.planId},Annual membership,fixed_term,active,yes,active,2027-11-25T13:21:24+05:30,no,,api,,2026-11-25T13:21:24+05:30`,
      '',
    ].join('\r\n'),
  },
};

export const exportMembers: Operation<exportsService.ExportDeps> = (app, deps) =>
  app.get(
    '/api/v1/memberships/members/export',
    { config: { auth: FULL_ONLY, examples }, schema: { ...membersExport, operationId: 'exportMembers' } },
    async (req, reply) => sendCsv(reply, await exportsService.membersCsv(deps, keyPrincipal(req), req.query)),
  );

import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import * as memberships from '../../memberships/memberships.service.js';
import { Membership } from '../../memberships/memberships.schemas.js';
import { type AdminDeps, STAFF } from './admin.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: { planId: EX.planId, name: 'Kavya Nair', email: 'kavya@example.in', validUntil: '2027-12-31' },
    },
  },
  responses: {
    '201': {
      success: true,
      data: {
        id: EX.membershipId,
        planId: EX.planId,
        name: 'Kavya Nair',
        email: 'kavya@example.in',
        phone: null,
        status: 'active',
        displayStatus: 'active',
        goodStanding: true,
        validUntil: '2027-12-31T00:00:00.000Z',
        source: 'manual',
        subscriptionId: null,
        cancelAtPeriodEnd: false,
        endedAt: null,
        createdAt: '2026-11-25T07:51:24.908Z',
      },
    },
  },
};

export const addMemberByHand: Operation<AdminDeps> = (app, deps) =>
  app.post(
    '/admin/api/memberships',
    {
      config: { auth: STAFF, examples },
      schema: {
        operationId: 'addMemberByHand',
        tags: ['admin'],
        summary: 'Add a member by hand (source: manual)',
        description:
          'On the plan’s account and mode, in good standing until `validUntil`. The same email on the same plan is updated rather than duplicated. The member is mailed a confirmation with the plan, the period and the membership id members-only tiers ask for (test mode keeps it at GET /api/v1/sandbox/emails).',
        body: Type.Object(
          {
            planId: Type.String({ maxLength: 100 }),
            name: Type.String({ minLength: 1, maxLength: 200 }),
            email: Type.String({ minLength: 3, maxLength: 254 }),
            validUntil: Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time.' }),
          },
          { additionalProperties: false },
        ),
        response: {
          201: answer(
            Type.Object({ success: Type.Literal(true), data: Membership }),
            'The membership added.',
          ),
          404: Type.Ref('Error'),
        },
      },
    },
    async (req, reply) => {
      const { membership, kind } = await memberships.addManualMember(deps.membershipDeps, req.body);
      return reply
        .code(201)
        .send({ success: true as const, data: await memberships.presentNow(deps, membership, kind) });
    },
  );

import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { cancel } from '../cancel.service.js';
import * as memberships from '../memberships.service.js';
import { Membership } from '../memberships.schemas.js';
import { EXAMPLE_MEMBERSHIP } from './membership-example.js';
import { E, type MembershipsDeps } from './membership.js';

const examples: OperationExamples = {
  params: { id: EX.membershipId },
  requests: { default: { value: { immediate: false } } },
  responses: {
    '201': {
      success: true,
      data: { ...EXAMPLE_MEMBERSHIP, displayStatus: 'cancelling', cancelAtPeriodEnd: true },
      message: 'the membership ends at the end of the paid period, 2027-11-25T07:51:24.908Z',
      alreadyEnded: false,
    },
  },
};

export const cancelMembership: Operation<MembershipsDeps> = (app, deps) =>
  app.post(
    '/api/v1/memberships/:id/cancel',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'cancelMembership',
        tags: ['memberships'],
        summary: 'Cancel a membership',
        description:
          'By default it ends at the end of the paid period (the mandate is cancelled at cycle end at the gateway) and the member keeps the time paid for; `immediate: true` ends it now, and so does a cancel of a membership that has paid nothing yet. It is decided on the membership as it stands when the cancel takes it: a payment or charge recorded first counts as paid. A payment or charge the gateway reports after the membership ended (or while a cancel that ends it now waits for the gateway) pays for no period and is refunded in full. A second cancel answers `alreadyEnded: true` and changes nothing; one made while another that ends the membership now waits for the gateway answers 409 `busy`. When the gateway refuses or fails, the call answers 502 and the local record is left as it was.',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        body: Type.Optional(
          Type.Object({ immediate: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        ),
        response: {
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Membership,
              message: Type.String(),
              alreadyEnded: Type.Boolean(),
            }),
            'The membership as cancelled.',
          ),
          404: E,
          409: E,
          502: E,
        },
      },
    },
    async (req, reply) => {
      const r = await cancel(
        deps.membershipDeps,
        keyPrincipal(req),
        req.params.id,
        req.body?.immediate === true,
      );
      return reply.code(201).send({
        success: true as const,
        data: await memberships.presentNow(deps, r.membership),
        message: r.message,
        alreadyEnded: r.alreadyEnded,
      });
    },
  );

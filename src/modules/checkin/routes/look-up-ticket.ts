import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import type { CheckinDeps } from '../checkin.service.js';
import * as checkin from '../checkin.service.js';
import { Status, Params, E } from './ticket-status.js';

const examples: OperationExamples = {
  params: { registrationId: EX.registrationId },
  responses: {
    '200': {
      success: true,
      data: {
        registrationId: EX.registrationId,
        name: 'Attendee',
        seat: 'Stalls · Row C, seat 12',
        email: 'attendee@example.in',
        ticketType: 'Gold',
        admissible: true,
        checkedIn: false,
        arrived: 0,
        expected: 1,
        memberIndex: null,
        members: [
          {
            index: 0,
            id: EX.registrationId,
            name: 'Attendee',
            seat: 'Stalls · Row C, seat 12',
            checkedIn: false,
            checkedInAt: null,
          },
        ],
      },
    },
  },
};

export const lookUpTicket: Operation<CheckinDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/check-in',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'lookUpTicket',
        tags: ['check-in'],
        summary: 'Look up a ticket at the door; never admits',
        description:
          '`registrationId` is the QR value: the booking id, a team member’s own id, the `ticketCode` after a transfer, or a JSON payload such as `{"registrationId":"…"}`. A refused ticket answers 200 with `admissible: false` and `refusalReason`. An id of another event is 404.\n\nAnswered from the instance’s in-memory roster of the event when it is known current, else from the database, with the same answer. A change made through this instance shows at once; one made through another instance once its notification has arrived (milliseconds).',
        params: Params,
        querystring: Type.Object({
          registrationId: Type.Optional(Type.String({ maxLength: 500 })),
          qr: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Status }),
            'The ticket and whether it would be admitted now (nothing changed).',
          ),
          404: E,
        },
      },
    },
    async (req) => {
      const value = req.query.registrationId ?? req.query.qr;
      if (value === undefined)
        throw badRequest('invalid_request', 'querystring is missing required field "registrationId"');
      return {
        success: true as const,
        data: await checkin.lookup(deps, keyPrincipal(req), req.params.id, value),
      };
    },
  );

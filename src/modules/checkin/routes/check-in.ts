import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { badRequest } from '../../../lib/errors.js';
import type { CheckinDeps } from '../checkin.service.js';
import { scan } from '../scan.service.js';
import { Status, Params, E } from './ticket-status.js';

const examples: OperationExamples = {
  requests: { default: { value: { registrationId: EX.registrationId } } },
  responses: {
    '201': {
      success: true,
      changed: true,
      alreadyCheckedIn: false,
      data: {
        registrationId: EX.registrationId,
        name: 'Attendee',
        seat: null,
        email: 'attendee@example.in',
        ticketType: 'General',
        admissible: true,
        checkedIn: true,
        arrived: 1,
        expected: 1,
        memberIndex: null,
        members: [
          {
            index: 0,
            id: EX.registrationId,
            name: 'Attendee',
            seat: null,
            checkedIn: true,
            checkedInAt: '2026-11-25T07:51:24.908Z',
          },
        ],
      },
    },
  },
};

export const checkIn: Operation<CheckinDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/check-in',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'checkIn',
        tags: ['check-in'],
        summary: 'Admit a ticket (or undo an admission)',
        description: [
          'Admits the whole booking, or one person with `memberIndex` (or by scanning a member’s own QR). 201 with `changed: true` when someone was admitted; a repeat answers 200 with `changed: false`, `alreadyCheckedIn: true`, writes nothing and keeps the first timestamp. Two devices scanning the same ticket at once, through any instances: exactly one answer has `changed: true`. The admission is decided by the database (admits arriving together are written in one statement, each its own conditional update) and is committed before the answer.',
          '`undo: true` reverses an admission (201 when something changed, 200 otherwise).',
          'Refusals are 409 with `refusalReason` (`cancelled`, `refunded`, `not_confirmed`) or, for the old QR of a transferred ticket, `reason: "transferred"`.',
        ].join('\n\n'),
        params: Params,
        body: Type.Object(
          {
            registrationId: Type.Optional(Type.String({ maxLength: 500, description: 'The QR value.' })),
            qr: Type.Optional(Type.String({ maxLength: 500, description: 'Alias of registrationId.' })),
            memberIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
            undo: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              changed: Type.Boolean(),
              alreadyCheckedIn: Type.Boolean(),
              data: Status,
            }),
            'Nothing changed: already admitted, or an undo of an admission that was not there.',
          ),
          201: answer(
            Type.Object({
              success: Type.Literal(true),
              changed: Type.Boolean(),
              alreadyCheckedIn: Type.Boolean(),
              data: Status,
            }),
            'Admitted (or the admission undone).',
          ),
          404: E,
          409: E,
        },
      },
    },
    async (req, reply) => {
      const value = req.body.registrationId ?? req.body.qr;
      if (value === undefined)
        throw badRequest(
          'invalid_request',
          'body is missing required field "registrationId" (or its alias "qr")',
        );
      const r = await scan(deps, keyPrincipal(req), req.params.id, {
        value,
        memberIndex: req.body.memberIndex,
        undo: req.body.undo,
      });
      return reply.code(r.changed ? 201 : 200).send({ success: true as const, ...r });
    },
  );

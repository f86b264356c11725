import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { FULL_ONLY, keyPrincipal } from '../../http/auth.js';
import { badRequest } from '../../lib/errors.js';
import * as checkin from './checkin.service.js';

const Reason = Type.Union([Type.Literal('cancelled'), Type.Literal('refunded'), Type.Literal('not_confirmed'), Type.Literal('transferred'), Type.Literal('wrong_session')], {
  description: '`wrong_session` only at a door pass’s track or day list (the API’s check-in admits for the whole event).',
});

const Status = Type.Object({
  registrationId: Type.String(),
  name: Type.String({ description: 'The scanned person (the member for a member’s own QR).' }),
  email: Type.String(),
  ticketType: Type.String(),
  admissible: Type.Boolean(),
  checkedIn: Type.Boolean({ description: 'Whether the scanned person (or, for a booking QR, everyone on it) is in.' }),
  arrived: Type.Integer({ description: 'People on the booking already in.' }),
  expected: Type.Integer({ description: 'People on the booking.' }),
  memberIndex: Nullable(Type.Integer({ description: 'The one person this scan is about, when it is about one.' })),
  members: Type.Array(
    Type.Object({ index: Type.Integer(), id: Type.String({ description: 'Their QR value.' }), name: Type.String(), checkedIn: Type.Boolean(), checkedInAt: Nullable(Type.String({ format: 'date-time' })) }),
    { description: 'Everyone on the booking, the primary first.' },
  ),
  refusalReason: Type.Optional(Reason),
});

const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const E = Type.Ref('Error');

export const checkinRoutes =
  (deps: checkin.CheckinDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/v1/events/:id/check-in',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['check-in'],
          summary: 'Look up a ticket at the door; never admits',
          description:
            '`registrationId` is the QR value: the booking id, a team member’s own id, the `ticketCode` after a transfer, or a JSON payload such as `{"registrationId":"…"}`. A refused ticket answers 200 with `admissible: false` and `refusalReason`. An id of another event is 404.\n\nAnswered from the instance’s in-memory roster of the event when it is known current, else from the database, with the same answer. A change made through this instance shows at once; one made through another instance once its notification has arrived (milliseconds).',
          params: Params,
          querystring: Type.Object({ registrationId: Type.Optional(Type.String({ maxLength: 500 })), qr: Type.Optional(Type.String({ maxLength: 500 })) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Status }), 404: E },
        },
      },
      async (req) => {
        const value = req.query.registrationId ?? req.query.qr;
        if (value === undefined) throw badRequest('invalid_request', 'querystring is missing required field "registrationId"');
        return { success: true as const, data: await checkin.lookup(deps, keyPrincipal(req), req.params.id, value) };
      },
    );

    app.post(
      '/api/v1/events/:id/check-in',
      {
        config: { auth: FULL_ONLY },
        schema: {
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
            200: Type.Object({ success: Type.Literal(true), changed: Type.Boolean(), alreadyCheckedIn: Type.Boolean(), data: Status }),
            201: Type.Object({ success: Type.Literal(true), changed: Type.Boolean(), alreadyCheckedIn: Type.Boolean(), data: Status }),
            404: E,
            409: E,
          },
        },
      },
      async (req, reply) => {
        const value = req.body.registrationId ?? req.body.qr;
        if (value === undefined) throw badRequest('invalid_request', 'body is missing required field "registrationId" (or its alias "qr")');
        const r = await checkin.scan(deps, keyPrincipal(req), req.params.id, { value, memberIndex: req.body.memberIndex, undo: req.body.undo });
        return reply.code(r.changed ? 201 : 200).send({ success: true as const, ...r });
      },
    );
  };

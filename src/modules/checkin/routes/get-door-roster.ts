import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as doorSync from '../door-sync.service.js';
import { E, Params, DOOR, Scope, Counts, Entry, doorCaller } from './door-api.js';

const examples: OperationExamples = {
  responses: {
    '200': {
      success: true,
      data: {
        event: { id: EX.eventId, title: 'Pune Tech Summit 2027' },
        list: { scope: null, label: 'The whole event' },
        cursor: '820:820:',
        full: true,
        counts: { arrived: 0, expected: 1 },
        entries: [
          {
            key: 'ad54f90a012ccb1ee14151ee8c90d06e12e36e1f80e1fcd22bfcc81db7d794cf',
            refusal: null,
            ticketType: 'General',
            track: null,
            session: null,
            retired: [],
            members: [
              {
                index: 0,
                key: 'ad54f90a012ccb1ee14151ee8c90d06e12e36e1f80e1fcd22bfcc81db7d794cf',
                name: 'Closed the tab',
                seat: null,
                checkedIn: false,
                checkedInAt: null,
                checkedInBy: null,
              },
            ],
          },
        ],
      },
    },
  },
};

export const getDoorRoster: Operation<DoorSyncDeps> = (app, deps) =>
  app.get(
    '/api/v1/events/:id/door/roster',
    {
      config: { auth: DOOR, examples },
      schema: {
        operationId: 'getDoorRoster',
        tags: ['check-in'],
        summary: 'The door’s roster, or its changes since a cursor',
        description: [
          'For the door screen’s offline mode: one entry per booking (every status; a refused one says why), keyed by `sha256(QR value)` in hex — never the ticket ids, so a lost phone mints no tickets. Names, seats (at a seated event), ticket types, tracks and check-in state only: no email, phone, answers or money.',
          '`since` is the `cursor` of an earlier answer: the answer then holds only bookings written since (a booking may come again; take the newest). `full` says which it is. `counts` is always the whole list’s.',
          'A pass of a track’s or a day’s list (`list.scope`) sees every booking of the event, with `refusal: wrong_session` on the tickets of other sessions and each member’s check-in state on that list; such a roster is always read from the database. `retired` holds the hashes of old QRs of transferred tickets, so a device offline shows them as transferred.',
          'Limits: the whole event in one answer (no pages; the screen asks for the full roster once, then `since`); `since` at most 2,000 characters, and a cursor the service did not give is 400 `invalid_roster_cursor`. Requests made with one door pass count against `RATE_LIMIT_PER_MINUTE` together (429 with `Retry-After` beyond it), whichever device makes them.',
          'Answered from the instance’s in-memory roster of the event when it is known current (kept so through PostgreSQL LISTEN/NOTIFY and a version counter, docs/architecture/door-fast-path.md), else read from the database; the answers are the same. A change made through another instance shows once that instance’s notification has arrived (milliseconds); a change made through this one shows at once.',
          'Door pass (`Authorization: DoorPass <token>`, its own event only) or a full key.',
        ].join('\n\n'),
        params: Params,
        querystring: Type.Object({
          since: Type.Optional(
            Type.String({
              maxLength: 2000,
              pattern: '^[0-9]+:[0-9]+:[0-9,]*$',
              description: 'The `cursor` of an earlier answer (opaque).',
            }),
          ),
        }),
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                event: Type.Object({ id: Type.String(), title: Type.String() }),
                list: Type.Object({
                  scope: Scope,
                  label: Type.String({ description: 'What the door admits for, as people read it.' }),
                }),
                cursor: Type.String(),
                full: Type.Boolean(),
                counts: Counts,
                entries: Type.Array(Entry),
              }),
            }),
            'The whole roster, or the changes since `cursor`.',
          ),
          404: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await doorSync.roster(deps, doorCaller(req), req.params.id, req.query.since),
    }),
  );

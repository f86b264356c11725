// What the door's API operations share (docs/decisions/15-the-door.md): the door pass and
// roster schemas, the door's auth rule and who makes a door request.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { keyPrincipal, type AuthRule, type DoorPrincipal, type KeyPrincipal } from '../../../http/auth.js';
import { Nullable } from '../../../http/schemas.js';

export const E = Type.Ref('Error');
export const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const DOOR: AuthRule = { kind: 'door', keys: true };

/** Most scans one sync may carry; a device with more sends them in several, in order. */
export const MAX_SYNC_SCANS = 500;

export const Scope = Type.Union(
  [
    Type.Object(
      {
        trackIndex: Type.Integer({
          minimum: 0,
          maximum: 999,
          description: 'One track (session), 0-based as in `tracks`.',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        date: Type.String({
          pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
          maxLength: 10,
          description: 'One day (YYYY-MM-DD, in the event’s time zone).',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'The check-in list the pass admits for: one track, one day, or (null) the whole event.' },
);

export const Pass = Type.Object({
  id: Type.String(),
  label: Type.String(),
  scope: Scope,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const Counts = Type.Object(
  { arrived: Type.Integer(), expected: Type.Integer() },
  { description: 'People of confirmed bookings in, and expected.' },
);

const Member = Type.Object({
  index: Type.Integer(),
  key: Type.String({
    description: 'sha256 (hex) of this person’s QR value; the primary’s is the entry’s key.',
  }),
  name: Type.String(),
  seat: Nullable(
    Type.String({
      description:
        'Their seat at a seated event (“Stalls · Row C, seat 12”), for the door screen to show beside the name; null at an event without a seating plan, and once a booking’s seats are freed.',
    }),
  ),
  checkedIn: Type.Boolean(),
  checkedInAt: Nullable(Type.String({ format: 'date-time' })),
  checkedInBy: Nullable(
    Type.String({
      description: 'Who admitted them: a door pass’s label (and device), “API key” or “Dashboard”.',
    }),
  ),
});

export const Entry = Type.Object({
  key: Type.String({
    description:
      'sha256 (hex) of the booking’s QR value (its ticketCode after a transfer). Never the id itself.',
  }),
  refusal: Nullable(
    Type.Union(
      [
        Type.Literal('cancelled'),
        Type.Literal('refunded'),
        Type.Literal('not_confirmed'),
        Type.Literal('wrong_session'),
      ],
      {
        description: '`wrong_session`: on a track’s or a day’s list, a ticket of another session.',
      },
    ),
  ),
  ticketType: Type.String(),
  track: Nullable(Type.String()),
  session: Nullable(
    Type.String({
      description:
        'The session the ticket is valid for, as people read it (“Day 2 · Mon 21 Dec 2026, 6:30 – 9:00 pm IST”); null for a whole-event ticket.',
    }),
  ),
  retired: Type.Array(Type.String(), {
    description:
      'sha256 (hex) of the booking’s QR values retired by transfers: the old QRs, shown as “transferred”.',
  }),
  members: Type.Array(Member),
});

export const ScanResult = Type.Object({
  seq: Type.Integer(),
  status: Type.Union([
    Type.Literal('admitted'),
    Type.Literal('undone'),
    Type.Literal('already_admitted'),
    Type.Literal('refused'),
  ]),
  by: Type.Optional(Nullable(Type.String({ description: 'already_admitted: who admitted them first.' }))),
  at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'already_admitted: when.' }))),
  reason: Type.Optional(
    Type.String({
      description:
        'refused: `cancelled`, `refunded`, `not_confirmed`, `transferred`, `ticket_not_found`, `member_not_found`, `member_mismatch` or `invalid_qr`.',
    }),
  ),
  message: Type.Optional(Type.String()),
  session: Type.Optional(
    Nullable(Type.String({ description: 'refused `wrong_session`: the session the ticket is valid for.' })),
  ),
});

/** Who makes a door request: the door pass, or else the full key. */
export function doorCaller(req: FastifyRequest): KeyPrincipal | DoorPrincipal {
  return req.doorPass ?? keyPrincipal(req);
}

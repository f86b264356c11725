// What the organiser's seat operations share: the body naming seats and the answer.
import { Type } from 'typebox';
import { MAX_SEATS_PER_HOLD } from '../hold-seats.service.js';
import { HeldSeat } from '../seat-holds.schemas.js';
import { SubEventId } from './seat-hold.js';

export const SeatsBody = Type.Object(
  {
    seats: Type.Array(Type.String({ maxLength: 100 }), {
      minItems: 1,
      maxItems: MAX_SEATS_PER_HOLD,
      description: `The seats' ids in the event's plan, at most ${MAX_SEATS_PER_HOLD}.`,
    }),
  },
  { additionalProperties: false },
);

/** The seats kept back or given back, of the event's plan or, with `subEventId`, a seated track's. */
export const HouseSeatsBody = Type.Object(
  { ...SeatsBody.properties, subEventId: Type.Optional(SubEventId) },
  { additionalProperties: false },
);

export const SeatsAnswer = Type.Object({ success: Type.Literal(true), data: Type.Array(HeldSeat) });

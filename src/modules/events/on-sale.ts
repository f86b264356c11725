// An event's sale opening and waiting room (docs/decisions/26-a-fair-waiting-room.md): the
// organiser's input checked into the stored shape, and what the API shows. Pure.
import type { OnSaleDoc } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';

export const DEFAULT_ADMIT_PER_MINUTE = 120;
export const DEFAULT_SESSION_MINUTES = 10;

export interface OnSaleInput {
  opensAt?: string | null;
  waitingRoom?: { enabled?: boolean; admitPerMinute?: number; sessionMinutes?: number };
  perBuyerLimit?: number | null;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

const invalid = (field: string, message: string) =>
  badRequest('invalid_on_sale', `onSale.${field} ${message}`, { field: `onSale.${field}` });

function wholeIn(value: number, field: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalid(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

function opensAtOf(value: string | null | undefined, base: string | null): string | null {
  if (value === undefined) return base;
  if (value === null) return null;
  const ms = Date.parse(value);
  if (!DATE_TIME.test(value) || Number.isNaN(ms))
    throw invalid('opensAt', 'must be a date-time with its offset, such as 2027-01-10T10:00:00+05:30');
  return new Date(ms).toISOString();
}

/** The stored settings after `input` (fields left out keep their value); 400 `invalid_on_sale` when one is out of range. */
export function validateOnSale(input: OnSaleInput, base: OnSaleDoc | null): OnSaleDoc {
  const room = input.waitingRoom ?? {};
  const was = base?.waitingRoom;
  const limit = input.perBuyerLimit === undefined ? (base?.perBuyerLimit ?? null) : input.perBuyerLimit;
  return {
    opensAt: opensAtOf(input.opensAt, base?.opensAt ?? null),
    waitingRoom: {
      enabled: room.enabled ?? was?.enabled ?? false,
      admitPerMinute: wholeIn(
        room.admitPerMinute ?? was?.admitPerMinute ?? DEFAULT_ADMIT_PER_MINUTE,
        'waitingRoom.admitPerMinute',
        1,
        100_000,
      ),
      sessionMinutes: wholeIn(
        room.sessionMinutes ?? was?.sessionMinutes ?? DEFAULT_SESSION_MINUTES,
        'waitingRoom.sessionMinutes',
        1,
        120,
      ),
    },
    perBuyerLimit: limit === null ? null : wholeIn(limit, 'perBuyerLimit', 1, 100),
  };
}

/** What the API shows: the defaults where nothing is stored. */
export function presentOnSale(doc: OnSaleDoc | null): OnSaleDoc {
  return (
    doc ?? {
      opensAt: null,
      waitingRoom: {
        enabled: false,
        admitPerMinute: DEFAULT_ADMIT_PER_MINUTE,
        sessionMinutes: DEFAULT_SESSION_MINUTES,
      },
      perBuyerLimit: null,
    }
  );
}

/** Whether the event's waiting room is on. */
export const roomIsOn = (doc: OnSaleDoc | null): boolean => doc?.waitingRoom.enabled === true;

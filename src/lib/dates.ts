// Event dates: a calendar date `YYYY-MM-DD` or an ISO 8601 date-time with an offset.
// Date-only values are placed at midnight India time for ordering.
import { badRequest } from './errors.js';

export interface EventDate {
  /** As the caller wrote it. */
  text: string;
  /** The instant used for ordering. */
  instant: Date;
  /** The calendar day in India time, `YYYY-MM-DD`, for day comparisons. */
  day: string;
  dateOnly: boolean;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const IST_OFFSET_MS = 330 * 60_000;

function validDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

export function parseEventDate(value: string, field: string): EventDate {
  const text = value.trim();
  const d = DATE_ONLY.exec(text);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    if (!validDay(y, m, day)) throw badRequest('invalid_date', `${field} is not a real calendar date`);
    return { text, instant: new Date(Date.UTC(y, m - 1, day) - IST_OFFSET_MS), day: text, dateOnly: true };
  }
  const t = DATE_TIME.exec(text);
  if (t) {
    const [y, m, day, hh, mm, ss] = [
      Number(t[1]),
      Number(t[2]),
      Number(t[3]),
      Number(t[4]),
      Number(t[5]),
      Number(t[6] ?? 0),
    ];
    if (!validDay(y, m, day) || hh > 23 || mm > 59 || ss > 59)
      throw badRequest('invalid_date', `${field} is not a real date and time`);
    const instant = new Date(text);
    if (Number.isNaN(instant.getTime()))
      throw badRequest('invalid_date', `${field} is not a valid date-time`);
    const day2 = new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
    return { text, instant, day: day2, dateOnly: false };
  }
  throw badRequest(
    'invalid_date',
    `${field} must be a date YYYY-MM-DD or an ISO 8601 date-time with offset, such as 2026-12-05T18:30:00+05:30`,
  );
}

/** End on or after start: by calendar day when either is a bare date, by instant otherwise. */
export function endsOnOrAfter(start: EventDate, end: EventDate): boolean {
  if (start.dateOnly || end.dateOnly) return end.day >= start.day;
  return end.instant.getTime() >= start.instant.getTime();
}

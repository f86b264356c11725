// When an event happens, for people: "Sat 12 Dec 2026, 10:00 am – 5:30 pm IST" in the
// event's time zone, and the same span for calendars (an .ics entry, a Google Calendar
// link). Events carry no time zone of their own: the service's EVENT_TIME_ZONE applies,
// India Standard Time unless configured otherwise. Pure.
import { parseEventDate } from './dates.js';

export const DEFAULT_TIME_ZONE = 'Asia/Kolkata';

/** A time zone name Intl knows (an IANA name such as Asia/Kolkata). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-IN', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * When something happens: nothing said; whole calendar days (bare dates, both ends
 * inclusive); or instants (date-times, the end optional).
 */
export type EventSpan =
  | { kind: 'none' }
  | { kind: 'days'; first: string; last: string }
  | { kind: 'times'; start: Date; end: Date | null };

/** The span of an event's (or a track's) stored dates. A bare date on either side makes it whole days. */
export function eventSpan(startDate: string | null, endDate: string | null, timeZone: string): EventSpan {
  if (startDate === null) return { kind: 'none' };
  const start = safeParse(startDate);
  if (!start) return { kind: 'none' };
  const end = endDate === null ? undefined : safeParse(endDate);
  if (start.dateOnly || end?.dateOnly) {
    const first = start.dateOnly ? start.text : dayIn(start.instant, timeZone);
    const last = end === undefined ? first : end.dateOnly ? end.text : dayIn(end.instant, timeZone);
    return { kind: 'days', first, last: last < first ? first : last };
  }
  return { kind: 'times', start: start.instant, end: end && end.instant.getTime() > start.instant.getTime() ? end.instant : null };
}

function safeParse(text: string) {
  try {
    return parseEventDate(text, 'date');
  } catch {
    return undefined;
  }
}

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  return `${p.year}-${p.month}-${p.day}`;
}

function parts(instant: Date, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat('en-IN', { ...options, timeZone }).formatToParts(instant)) out[part.type] = part.value;
  return out;
}

/** "Sat 12 Dec 2026" for a bare calendar day. */
export function formatDay(day: string): string {
  const p = parts(new Date(`${day}T12:00:00Z`), 'UTC', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** "12 Dec 2026": the day an instant falls on in a time zone, without the weekday (periods, receipts). */
export function formatDate(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone, { day: 'numeric', month: 'short', year: 'numeric' });
  return `${p.day} ${p.month} ${p.year}`;
}

/** "10:00 am" */
function clock(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone, { hour: 'numeric', minute: '2-digit', hour12: true });
  return `${p.hour}:${p.minute} ${(p.dayPeriod ?? '').toLowerCase()}`.trim();
}

/** The zone's short name at that instant: "IST" for India, otherwise what Intl calls it ("GMT+4"). */
export function timeZoneLabel(instant: Date, timeZone: string): string {
  return parts(instant, timeZone, { timeZoneName: 'short' }).timeZoneName ?? timeZone;
}

/**
 * The span for people: "Sat 12 Dec 2026, 10:00 am – 5:30 pm IST"; across days
 * "Sat 12 Dec 2026, 10:00 am – Sun 13 Dec 2026, 1:00 pm IST"; whole days
 * "Sat 12 Dec 2026" or "Sat 12 Dec 2026 – Sun 13 Dec 2026"; nothing said: undefined.
 */
export function formatSpan(span: EventSpan, timeZone: string): string | undefined {
  switch (span.kind) {
    case 'none':
      return undefined;
    case 'days':
      return span.first === span.last ? formatDay(span.first) : `${formatDay(span.first)} – ${formatDay(span.last)}`;
    case 'times': {
      const startDay = dayIn(span.start, timeZone);
      const start = `${formatDay(startDay)}, ${clock(span.start, timeZone)}`;
      const label = timeZoneLabel(span.start, timeZone);
      if (span.end === null) return `${start} ${label}`;
      const endDay = dayIn(span.end, timeZone);
      const end = endDay === startDay ? clock(span.end, timeZone) : `${formatDay(endDay)}, ${clock(span.end, timeZone)}`;
      return `${start} – ${end} ${label}`;
    }
  }
}

/** The day after a calendar day (an all-day calendar entry's end is exclusive). */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * A timed event that says no end gets a calendar entry of this length (what calendar
 * apps give a new entry); the text shown to people names only the start.
 */
export const DEFAULT_ENTRY_MS = 3_600_000;

/** The calendar entry's bounds: whole days (end exclusive) or instants (UTC). */
export function calendarBounds(span: Exclude<EventSpan, { kind: 'none' }>): { allDay: true; first: string; endExclusive: string } | { allDay: false; start: Date; end: Date } {
  if (span.kind === 'days') return { allDay: true, first: span.first, endExclusive: nextDay(span.last) };
  return { allDay: false, start: span.start, end: span.end ?? new Date(span.start.getTime() + DEFAULT_ENTRY_MS) };
}

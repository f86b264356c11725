// When an event (or one of its sessions) happens, for people: "Sat 12 Dec 2026, 10:00 am –
// 5:30 pm IST" in the event's time zone, never ISO text; the same span for calendars (an
// .ics entry, a Google Calendar link) and wallets (date-times with the zone's offset).
// Events carry no time zone of their own: the service's EVENT_TIME_ZONE applies, India
// Standard Time unless configured otherwise. Pure, and independent of the machine's zone.
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
  return {
    kind: 'times',
    start: start.instant,
    end: end && end.instant.getTime() > start.instant.getTime() ? end.instant : null,
  };
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

// Making an Intl.DateTimeFormat costs far more than formatting with one (a list of 50 events
// made hundreds a page), so each zone and set of options gets one, kept. The options are the
// few this file names and the zones the service's and UTC; the bound only guards a caller
// that would pass many zones.
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 200;

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone} ${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-IN', { ...options, timeZone });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

function parts(instant: Date, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of formatter(timeZone, options).formatToParts(instant)) out[part.type] = part.value;
  return out;
}

/** "Sat 12 Dec 2026" for a bare calendar day. */
export function formatDay(day: string): string {
  const p = parts(new Date(`${day}T12:00:00Z`), 'UTC', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** "12 Dec 2026": the day an instant falls on in a time zone, without the weekday (periods, receipts). */
export function formatDate(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone, { day: 'numeric', month: 'short', year: 'numeric' });
  return `${p.day} ${p.month} ${p.year}`;
}

/** "10:00 am" */
export function clock(instant: Date, timeZone: string): string {
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
      return span.first === span.last
        ? formatDay(span.first)
        : `${formatDay(span.first)} – ${formatDay(span.last)}`;
    case 'times': {
      const startDay = dayIn(span.start, timeZone);
      const start = `${formatDay(startDay)}, ${clock(span.start, timeZone)}`;
      const label = timeZoneLabel(span.start, timeZone);
      if (span.end === null) return `${start} ${label}`;
      const endDay = dayIn(span.end, timeZone);
      const end =
        endDay === startDay
          ? clock(span.end, timeZone)
          : `${formatDay(endDay)}, ${clock(span.end, timeZone)}`;
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
export function calendarBounds(
  span: Exclude<EventSpan, { kind: 'none' }>,
): { allDay: true; first: string; endExclusive: string } | { allDay: false; start: Date; end: Date } {
  if (span.kind === 'days') return { allDay: true, first: span.first, endExclusive: nextDay(span.last) };
  return {
    allDay: false,
    start: span.start,
    end: span.end ?? new Date(span.start.getTime() + DEFAULT_ENTRY_MS),
  };
}

/** "Sun 20 Dec 2026, 4:30 pm IST": one instant for people (a deadline, a cutoff). */
export function formatInstant(instant: Date, timeZone: string): string {
  return `${formatDay(dayIn(instant, timeZone))}, ${clock(instant, timeZone)} ${timeZoneLabel(instant, timeZone)}`;
}

/** The zone's offset from UTC at an instant, in minutes (330 for India). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const p = parts(instant, timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** `2026-12-20T18:30:00+05:30`: the wall-clock time in the zone with its offset written out. */
export function zonedIso(instant: Date, timeZone: string): string {
  const offset = offsetMinutes(instant, timeZone);
  const local = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The instant a calendar day begins in the zone (its local midnight). */
export function startOfDay(day: string, timeZone: string): Date {
  const midnightUtc = new Date(`${day}T00:00:00Z`);
  // The offset at that midnight, found from a guess one offset away (right except within a shift's hour).
  const guess = new Date(midnightUtc.getTime() - offsetMinutes(midnightUtc, timeZone) * 60_000);
  return new Date(midnightUtc.getTime() - offsetMinutes(guess, timeZone) * 60_000);
}

/** When a span begins: its start, or the first day's midnight in the zone; null when nothing is said. */
export function spanStart(span: EventSpan, timeZone: string): Date | null {
  if (span.kind === 'none') return null;
  return span.kind === 'times' ? span.start : startOfDay(span.first, timeZone);
}

/**
 * A span for wallets: start and end as date-times with the zone's offset (Google loses
 * features without one; Apple keeps it with `ignoresTimeZone`), whole days from midnight to
 * 23:59:59, a start without an end lasting DEFAULT_ENTRY_MS as in calendars; `label` for people.
 */
export function walletTimes(
  span: EventSpan,
  timeZone: string,
): { start: string; end: string; dateOnly: boolean; label: string } | undefined {
  if (span.kind === 'none') return undefined;
  const label = formatSpan(span, timeZone)!;
  if (span.kind === 'days') {
    const start = startOfDay(span.first, timeZone);
    const end = new Date(startOfDay(nextDay(span.last), timeZone).getTime() - 1_000);
    return { start: zonedIso(start, timeZone), end: zonedIso(end, timeZone), dateOnly: true, label };
  }
  const b = calendarBounds(span);
  if (b.allDay) throw new Error('unreachable');
  return { start: zonedIso(b.start, timeZone), end: zonedIso(b.end, timeZone), dateOnly: false, label };
}

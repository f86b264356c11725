// An event's dates as the wallets and WhatsApp show them: venue-local time in India
// (+05:30), the zone the service's events are held in, with the offset written out
// (Google loses features without it; Apple keeps it with `ignoresTimeZone`). A date
// without a time covers the whole day.
import { parseEventDate } from './dates.js';

const IST_OFFSET_MS = 330 * 60_000;

export interface EventTimes {
  /** ISO 8601 with +05:30. */
  start: string;
  end: string;
  /** The event has days, not times. */
  dateOnly: boolean;
  /** For people: "Sat 5 Dec 2026, 9:00 am IST" (or the day alone). */
  label: string;
}

/** The wall-clock time in India of an instant, as `YYYY-MM-DDTHH:MM:SS+05:30`. */
export function istIso(instant: Date): string {
  return `${new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19)}+05:30`;
}

const dayFormat = new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });
const timeFormat = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'Asia/Kolkata' });

/** Undefined when the event has no start date yet. */
export function eventTimes(startDate: string | null, endDate: string | null): EventTimes | undefined {
  if (startDate === null) return undefined;
  const start = parseEventDate(startDate, 'startDate');
  const end = endDate === null ? undefined : parseEventDate(endDate, 'endDate');
  const startIso = start.dateOnly ? `${start.day}T00:00:00+05:30` : istIso(start.instant);
  let endIso: string;
  if (end === undefined) endIso = start.dateOnly ? `${start.day}T23:59:59+05:30` : startIso;
  else endIso = end.dateOnly ? `${end.day}T23:59:59+05:30` : istIso(end.instant);
  const part = (type: string) => dayFormat.formatToParts(start.instant).find((p) => p.type === type)?.value ?? '';
  const day = `${part('weekday')} ${part('day')} ${part('month')} ${part('year')}`;
  const label = start.dateOnly ? day : `${day}, ${timeFormat.format(start.instant).replace(/\s?([ap])\.?m\.?$/i, ' $1m').toLowerCase()} IST`;
  return { start: startIso, end: endIso, dateOnly: start.dateOnly, label };
}

// A ticket as a calendar entry: an RFC 5545 file made by the `ics` package (UID = the
// ticket id, so the mail's file and the confirmation screen's download are one entry in
// the buyer's calendar; the venue; a reminder an hour before), and the same entry as a
// Google Calendar link.
import { createEvent, type DateArray, type EventAttributes } from 'ics';
import { calendarBounds, type EventSpan } from '../../lib/event-time.js';

export interface CalendarEntry {
  /** The ticket id: the entry's UID. */
  uid: string;
  title: string;
  span: EventSpan;
  location: string | null;
  description: string;
  /** DTSTAMP: when the file was made (the injected clock). */
  now: Date;
}

const PRODUCT_ID = '-//ticketing-service//tickets//EN';

function dayArray(day: string): DateArray {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

/** The .ics text, or undefined when the event says no date (nothing to put in a calendar). */
export function ticketCalendar(entry: CalendarEntry): string | undefined {
  if (entry.span.kind === 'none') return undefined;
  const b = calendarBounds(entry.span);
  const when = b.allDay
    ? { start: dayArray(b.first), end: dayArray(b.endExclusive) }
    : {
        start: b.start.getTime(),
        startInputType: 'utc' as const,
        startOutputType: 'utc' as const,
        end: b.end.getTime(),
        endInputType: 'utc' as const,
        endOutputType: 'utc' as const,
      };
  const attributes: EventAttributes & { timestamp: number } = {
    ...when,
    uid: entry.uid,
    productId: PRODUCT_ID,
    method: 'PUBLISH',
    title: entry.title,
    description: entry.description,
    ...(entry.location ? { location: entry.location } : {}),
    status: 'CONFIRMED' as const,
    alarms: [
      {
        action: 'display' as const,
        description: `${entry.title} starts in an hour`,
        trigger: { hours: 1, before: true },
      },
    ],
    // DTSTAMP from the service's clock, not the machine's (the package reads `timestamp`).
    timestamp: entry.now.getTime(),
  };
  const { error, value } = createEvent(attributes);
  if (error || value === null) throw error ?? new Error('the calendar file could not be made');
  return value;
}

const compactUtc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** "Add to Google Calendar": the same entry as a link to Google's event template. */
export function googleCalendarUrl(
  entry: Omit<CalendarEntry, 'uid' | 'now'>,
  timeZone: string,
): string | undefined {
  if (entry.span.kind === 'none') return undefined;
  const b = calendarBounds(entry.span);
  const dates = b.allDay
    ? `${b.first.replace(/-/g, '')}/${b.endExclusive.replace(/-/g, '')}`
    : `${compactUtc(b.start)}/${compactUtc(b.end)}`;
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: entry.title,
    dates,
    details: entry.description,
    ctz: timeZone,
  });
  if (entry.location) q.set('location', entry.location);
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}

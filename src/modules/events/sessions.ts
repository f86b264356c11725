// A session is what a booking admits to: one track with its own time, or the whole event
// when the booking names no track (or the event has none). Its times are the track's own
// when it says them, else the event's, so everything that shows or acts on a booking's
// time (the confirmation, the ticket mail, the attendee page, calendars, wallets, the
// self-service cutoff, door lists) asks here. Pure.
import type { TrackDoc } from './events.tables.js';
import { dayIn, eventSpan, spanStart, type EventSpan } from '../../lib/event-time.js';

/** The event fields a session is read from. */
export interface SessionSource {
  start_date: string | null;
  end_date: string | null;
  tracks: readonly Pick<TrackDoc, 'title' | 'date' | 'endDate'>[];
}

export interface Session {
  /** The track's index (the API's `subEventId`), or null for the whole event. */
  trackIndex: number | null;
  /** The track's title; null for the whole event. */
  title: string | null;
  /** The session's start and end as stored (a day `YYYY-MM-DD` or a date-time with offset). */
  startText: string | null;
  endText: string | null;
  span: EventSpan;
  /** When it begins: the start, or the first day's midnight in the event's zone; null when no date is known. */
  startsAt: Date | null;
  /** The days it covers in the event's zone, `YYYY-MM-DD` (null when no date is known). */
  firstDay: string | null;
  lastDay: string | null;
}

/**
 * A track's start and end as stored: its own `date` (else the event's start) and its own
 * end; a track without a date of its own keeps the event's end too (it runs as the event does).
 */
export function sessionDates(
  event: Pick<SessionSource, 'start_date' | 'end_date'>,
  track: Pick<TrackDoc, 'date' | 'endDate'> | undefined,
): { start: string | null; end: string | null } {
  if (!track) return { start: event.start_date, end: event.end_date };
  if (track.date === null) return { start: event.start_date, end: track.endDate ?? event.end_date };
  return { start: track.date, end: track.endDate ?? null };
}

/** The session of track `trackIndex` (null, or an index the event no longer has: the whole event). */
export function sessionOf(event: SessionSource, trackIndex: number | null, timeZone: string): Session {
  const track = trackIndex === null ? undefined : event.tracks[trackIndex];
  const { start, end } = sessionDates(event, track);
  const span = eventSpan(start, end, timeZone);
  const days =
    span.kind === 'none'
      ? { firstDay: null, lastDay: null }
      : span.kind === 'days'
        ? { firstDay: span.first, lastDay: span.last }
        : { firstDay: dayIn(span.start, timeZone), lastDay: dayIn(span.end ?? span.start, timeZone) };
  return {
    trackIndex: track ? trackIndex : null,
    title: track?.title ?? null,
    startText: start,
    endText: end,
    span,
    startsAt: spanStart(span, timeZone),
    ...days,
  };
}

/** Whether a session covers a calendar day (`YYYY-MM-DD`, in the event's zone). */
export function sessionCoversDay(session: Pick<Session, 'firstDay' | 'lastDay'>, day: string): boolean {
  return (
    session.firstDay !== null && session.lastDay !== null && session.firstDay <= day && day <= session.lastDay
  );
}

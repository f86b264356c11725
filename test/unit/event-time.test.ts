// Dates for people in the event's time zone, and the same span as a calendar entry that a
// calendar parser (ical.js) reads back: UID, start and end, location, a one-hour alarm.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import {
  clock,
  dayIn,
  eventSpan,
  formatSpan,
  formatDate,
  isTimeZone,
  timeZoneLabel,
  DEFAULT_TIME_ZONE,
} from '../../src/lib/event-time.js';
import { rupees, when } from '../../src/dashboard/layout.js';
import { formatMoney } from '../../src/lib/money.js';
import { googleCalendarUrl, ticketCalendar } from '../../src/modules/tickets/calendar.js';

const IST = DEFAULT_TIME_ZONE;

describe('event times for people', () => {
  it('shows a day with its hours in IST, labelled', () => {
    const span = eventSpan('2026-12-12T10:00+05:30', '2026-12-12T17:30+05:30', IST);
    assert.equal(formatSpan(span, IST), 'Sat 12 Dec 2026, 10:00 am – 5:30 pm IST');
  });

  it('converts a date-time written in another offset into the event’s zone', () => {
    assert.equal(
      formatSpan(eventSpan('2026-12-12T04:30:00Z', null, IST), IST),
      'Sat 12 Dec 2026, 10:00 am IST',
    );
  });

  it('names both days when a span crosses midnight', () => {
    const span = eventSpan('2026-12-12T20:00+05:30', '2026-12-13T01:00+05:30', IST);
    assert.equal(formatSpan(span, IST), 'Sat 12 Dec 2026, 8:00 pm – Sun 13 Dec 2026, 1:00 am IST');
  });

  it('shows bare dates as whole days, without a time or zone', () => {
    assert.equal(formatSpan(eventSpan('2026-12-12', null, IST), IST), 'Sat 12 Dec 2026');
    assert.equal(
      formatSpan(eventSpan('2026-12-12', '2026-12-13', IST), IST),
      'Sat 12 Dec 2026 – Sun 13 Dec 2026',
    );
    assert.equal(formatSpan(eventSpan(null, null, IST), IST), undefined);
  });

  it('follows another configured zone, labelled by its own name', () => {
    const span = eventSpan('2026-12-12T10:00+05:30', null, 'Asia/Dubai');
    assert.match(formatSpan(span, 'Asia/Dubai')!, /^Sat 12 Dec 2026, 8:30 am (GST|GMT\+4)$/);
    assert.equal(isTimeZone('Asia/Dubai'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
  });

  it('formats days and amounts', () => {
    assert.equal(formatDate(new Date('2027-12-11T20:00:00Z'), IST), '12 Dec 2027');
    assert.equal(formatMoney(49900), '₹499');
    assert.equal(formatMoney(124950), '₹1,249.50');
  });

  it('keeps one formatter per zone and set of options: the same instant, asked in turn, answers each as asked', () => {
    const instant = new Date('2027-12-11T20:00:00Z');
    for (let round = 0; round < 2; round++) {
      assert.equal(formatDate(instant, IST), '12 Dec 2027');
      assert.equal(formatDate(instant, 'UTC'), '11 Dec 2027');
      assert.equal(dayIn(instant, IST), '2027-12-12');
      assert.equal(clock(instant, IST), '1:30 am');
      assert.equal(clock(instant, 'UTC'), '8:00 pm');
      assert.equal(timeZoneLabel(instant, IST), 'IST');
    }
  });

  it('formats the dashboard’s times and rupees', () => {
    assert.equal(when(new Date('2026-12-12T04:30:00Z')), '12 Dec 2026, 10:00 am');
    assert.equal(when(null), '—');
    assert.deepEqual([0, 499, 1234567, 12.5, 0.01].map(rupees), [
      '₹0',
      '₹499',
      '₹12,34,567',
      '₹12.50',
      '₹0.01',
    ]);
  });
});

describe('calendar entries', () => {
  const now = new Date('2026-11-01T00:00:00Z');

  function parse(text: string) {
    const comp = new ICAL.Component(ICAL.parse(text));
    const vevent = comp.getFirstSubcomponent('vevent')!;
    return { comp, vevent, event: new ICAL.Event(vevent) };
  }

  it('writes RFC 5545 that ical.js reads back: UID = ticket id, times, location, a one-hour alarm', () => {
    const span = eventSpan('2026-12-12T10:00+05:30', '2026-12-12T17:30+05:30', IST);
    const ics = ticketCalendar({
      uid: 'reg_ticket123',
      title: 'Monsoon; Meetup, 2026',
      span,
      location: 'Hall 3, Bengaluru',
      description: 'Ticket reg_ticket123\nSee you',
      now,
    })!;
    assert.match(ics, /\r\n/, 'lines end with CRLF');
    const { comp, vevent, event } = parse(ics);
    assert.equal(comp.getFirstPropertyValue('version'), '2.0');
    assert.ok(comp.getFirstPropertyValue('prodid'));
    assert.equal(event.uid, 'reg_ticket123');
    assert.equal(event.summary, 'Monsoon; Meetup, 2026');
    assert.equal(event.location, 'Hall 3, Bengaluru');
    assert.equal(event.startDate.toJSDate().toISOString(), '2026-12-12T04:30:00.000Z');
    assert.equal(event.endDate.toJSDate().toISOString(), '2026-12-12T12:00:00.000Z');
    assert.equal(String(vevent.getFirstPropertyValue('dtstamp')), '2026-11-01T00:00:00Z');
    const alarm = vevent.getFirstSubcomponent('valarm')!;
    assert.equal(alarm.getFirstPropertyValue('action'), 'DISPLAY');
    assert.equal(String(alarm.getFirstPropertyValue('trigger')), '-PT1H');
  });

  it('writes whole days as DATE values with an exclusive end, and a timed start without end as one hour', () => {
    const days = parse(
      ticketCalendar({
        uid: 'reg_a',
        title: 'Fest',
        span: eventSpan('2026-12-12', '2026-12-13', IST),
        location: null,
        description: 'x',
        now,
      })!,
    ).event;
    assert.equal(days.startDate.isDate, true);
    assert.equal(days.startDate.toString(), '2026-12-12');
    assert.equal(days.endDate.toString(), '2026-12-14');
    const open = parse(
      ticketCalendar({
        uid: 'reg_b',
        title: 'Talk',
        span: eventSpan('2026-12-12T18:00+05:30', null, IST),
        location: null,
        description: 'x',
        now,
      })!,
    ).event;
    assert.equal(open.endDate.toJSDate().getTime() - open.startDate.toJSDate().getTime(), 3_600_000);
    assert.equal(
      ticketCalendar({
        uid: 'reg_c',
        title: 'TBA',
        span: eventSpan(null, null, IST),
        location: null,
        description: 'x',
        now,
      }),
      undefined,
    );
  });

  it('links the same entry to Google Calendar', () => {
    const url = new URL(
      googleCalendarUrl(
        {
          title: 'Monsoon Meetup',
          span: eventSpan('2026-12-12T10:00+05:30', '2026-12-12T17:30+05:30', IST),
          location: 'Bengaluru',
          description: 'd',
        },
        IST,
      )!,
    );
    assert.equal(url.origin + url.pathname, 'https://calendar.google.com/calendar/render');
    assert.equal(url.searchParams.get('action'), 'TEMPLATE');
    assert.equal(url.searchParams.get('dates'), '20261212T043000Z/20261212T120000Z');
    assert.equal(url.searchParams.get('location'), 'Bengaluru');
    assert.equal(url.searchParams.get('ctz'), IST);
    const allDay = new URL(
      googleCalendarUrl(
        { title: 'Fest', span: eventSpan('2026-12-12', null, IST), location: null, description: 'd' },
        IST,
      )!,
    );
    assert.equal(allDay.searchParams.get('dates'), '20261212/20261213');
  });
});

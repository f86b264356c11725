// Racing mode of the reconciliation run (RECONCILE_RACING=1, `racing: true`): besides the
// usual operations, the seed picks groups of concurrent changes to ONE booking, fired at
// once at both service processes, whose gateway requests are released together — a real
// race, unlike the rest of the run, where the emulator lets one request move at a time.
//
// What the seed fixes: after which operations a group runs, its kind (the kinds come round
// in a seeded order, so a run of a few dozen groups has every kind), the booking it races
// on, who sends each request (the organiser's key or the attendee's page) and which process
// gets it. What it does not fix: which request of a group wins. The money checks must hold
// whichever does; figures that depend on the winner (what a partial cancel kept, how many
// requests answered 409) may differ between two runs of one seed.
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { formToken } from '../../src/modules/attendee/attendee.service.js';
import type { Reply } from '../helpers/http.js';
import { pick, type Random } from '../helpers/prng.js';
import type { EmulatorNotification, HeldRequest, RazorpayEmulator } from '../helpers/razorpay-emulator.js';

export const RACE_KINDS = [
  'cancel_cancel',
  'cancel_refund',
  'refund_refund',
  'attendee_cancel_refund',
  'step2_cancel',
  'notification_step2',
  'transfer_cancel',
] as const;
export type RaceKind = (typeof RACE_KINDS)[number];

/**
 * Kinds whose every request ends the booking: of any number of them, at most one may act
 * (docs/decisions/20-booking-lifecycle.md); the others answer 409 and move no money.
 */
const ENDING: readonly RaceKind[] = [
  'cancel_cancel',
  'cancel_refund',
  'refund_refund',
  'attendee_cancel_refund',
];

export interface RaceFigures {
  groups: number;
  byKind: Record<string, number>;
  requests: number;
  /** Every answer of a raced request, by status and code (`200`, `409 registration_changed`, …). */
  answers: Record<string, number>;
  /** Groups of ending requests in which exactly one request answered 2xx. */
  oneActed: number;
}

export const emptyRaceFigures = (): RaceFigures => ({
  groups: 0,
  byKind: {},
  requests: 0,
  answers: {},
  oneActed: 0,
});

/**
 * The events racing bookings are made on: the attendee's page may cancel and transfer. A
 * cancellation there keeps a fee above half the price, so two refunds of one booking fit in
 * its capture and the gateway would carry out a double refund rather than refuse it; on the
 * third it keeps the whole price (`refund: 'none'`, a fee of 100 %).
 */
export const RACE_EVENTS: readonly {
  title: string;
  price: number;
  feePercent: number;
  maxTeamSize?: number;
}[] = [
  { title: 'Race 0', price: 999, feePercent: 62.5, maxTeamSize: 3 },
  { title: 'Race 1', price: 250, feePercent: 70 },
  { title: 'Race 2', price: 120, feePercent: 100 },
];

export interface RaceEvent {
  id: string;
  label: string;
  feeBasisPoints: number;
}

type Booking = { eventId: string; registrationId: string; orderId: string };

/** What a racing group needs of the run: its helpers, bound to the run's processes, key and emulator. */
export interface RaceHarness {
  rzp: RazorpayEmulator;
  secretsKey: Buffer;
  events: readonly RaceEvent[];
  /** The service processes' URLs as they are now (one may have been replaced). */
  urls(): string[];
  book(r: Random, event: RaceEvent): Promise<Booking | undefined>;
  pay(orderId: string): string | undefined;
  /** The organiser's API call at `url` (status 0 when the process died under it). */
  api(url: string, method: string, path: string, body?: unknown): Promise<Reply>;
  /** A form post at `url`, as a browser on that origin sends it. */
  form(url: string, path: string, fields: Record<string, string>): Promise<Reply>;
  /** The gateway's signed notification delivered at `url`. */
  notify(url: string, note: EmulatorNotification): Promise<Reply>;
  /** The emulator's notifications of `paymentId`, taken out of what waits to be delivered. */
  notificationsOf(paymentId: string): EmulatorNotification[];
  ticketCode(registrationId: string): Promise<string | null>;
  email(tag: string): string;
  figures: RaceFigures;
  mismatch(m: string): void;
  /** A group that neither finished nor reached the gateway in 60 s (then released at once). */
  stalled(): void;
  /** Each group's requests and answers (RECONCILE_DIGEST), to see who won. */
  trace?(line: string): void;
}

/** The kinds in the order the run meets them: every kind once per round, each round shuffled by the seed. */
export function raceKinds(r: Random, count: number): RaceKind[] {
  const out: RaceKind[] = [];
  while (out.length < count) {
    const round = [...RACE_KINDS];
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    out.push(...round);
  }
  return out.slice(0, count);
}

/**
 * Runs `tasks` at once with every gateway request held at the emulator; whenever each task
 * still running waits there, releases them all together, so the requests of a group reach
 * the gateway side by side and in whichever order they arrive.
 */
export async function releasedTogether<T>(
  rzp: RazorpayEmulator,
  tasks: (() => Promise<T>)[],
  stalled: () => void,
): Promise<T[]> {
  const results: T[] = [];
  const held: HeldRequest[] = [];
  let running = tasks.length;
  let wake = () => {};
  let gated = true;
  rzp.gate(true);
  try {
    const finished = tasks.map((task, i) =>
      task()
        .then((v) => {
          results[i] = v;
        })
        .finally(() => {
          running--;
          wake();
        }),
    );
    void (async () => {
      while (gated) {
        const h = await rzp.nextHeld();
        held.push(h);
        wake();
      }
    })();
    while (running > 0) {
      if (held.length > 0 && held.length >= running) for (const h of held.splice(0)) h.release();
      let timer: NodeJS.Timeout | undefined;
      const moved = await Promise.race([
        new Promise<true>((res) => (wake = () => res(true))),
        new Promise<false>((res) => (timer = setTimeout(() => res(false), 60_000))),
      ]);
      clearTimeout(timer);
      if (!moved) {
        stalled();
        gated = false;
        rzp.gate(false);
        for (const h of held.splice(0)) h.release();
        break;
      }
    }
    await Promise.all(finished);
    return results;
  } finally {
    gated = false;
    rzp.gate(false);
    // Whatever the pump took after the last task finished goes on too.
    for (const h of held.splice(0)) h.release();
  }
}

/** The attendee page's refusals by their message (its HTML error page says no code). */
const PAGE_REFUSALS: [RegExp, string][] = [
  [/changed meanwhile|refund of this registration is in progress/, 'registration_changed'],
  [/this ticket is (cancelled|refunded|refunding|pending)/, 'not_confirmed'],
  [/link is not valid/, 'ticket_page_not_found'],
  [/did not confirm the refund/, 'gateway_error'],
];

/** An answer by status and code: a JSON error's `code`, or the refusal an HTML error page words. */
function answerOf(a: Reply): string {
  const code =
    a.body && typeof a.body === 'object'
      ? (a.body as { code?: string }).code
      : a.status >= 400
        ? (PAGE_REFUSALS.find(([re]) => re.test(a.text))?.[1] ?? 'page')
        : undefined;
  return code ? `${a.status} ${code}` : String(a.status);
}

const ok = (a: Reply) => a.status >= 200 && a.status < 300;

/** One racing group of `kind` on a booking of its own. */
export async function runRace(h: RaceHarness, kind: RaceKind, r: Random): Promise<void> {
  const event = pick(r, h.events);
  const b = await h.book(r, event);
  if (!b) return;
  const base = `/api/v1/events/${b.eventId}/registrations/${b.registrationId}`;
  const step2 = (url: string, paymentId: string) =>
    h.api(url, 'POST', `/api/v1/events/${b.eventId}/register`, {
      registrationId: b.registrationId,
      orderId: b.orderId,
      paymentId,
    });
  const paymentId = h.pay(b.orderId);
  if (!paymentId) return;
  const pendingKinds: readonly RaceKind[] = ['step2_cancel', 'notification_step2'];
  // The other kinds race on a confirmed booking; a step 2 the gateway failed leaves it
  // pending, and the group races on that (the sweep settles it later).
  if (!pendingKinds.includes(kind)) await step2(pick(r, h.urls()), paymentId);

  // The attendee's page as opened before the race: its link and form tokens.
  const token = attendeeToken(
    h.secretsKey,
    b.registrationId,
    (await h.ticketCode(b.registrationId)) ?? b.registrationId,
  );
  type Request = [label: string, send: (url: string) => Promise<Reply>];
  const attendee = (action: 'cancel' | 'transfer', fields: Record<string, string>): Request => [
    `attendee ${action}`,
    (url) =>
      h.form(url, `/t/${token}/${action}`, { csrf: formToken(h.secretsKey, token, action), ...fields }),
  ];
  const organiser = (action: 'cancel' | 'refund' | 'transfer', body?: unknown): Request => [
    `organiser ${action}`,
    (url) => h.api(url, 'POST', `${base}/${action}`, body),
  ];
  const cancel = attendee('cancel', { confirm: 'yes' });
  const transferTo = { name: 'New Holder', email: h.email('holder') };

  const requests: Request[] = [];
  switch (kind) {
    case 'cancel_cancel':
      // Two tabs of the attendee's page (three, sometimes), and sometimes the organiser too.
      requests.push(cancel, cancel);
      if (r() < 0.3) requests.push(cancel);
      if (r() < 0.3) requests.push(organiser('cancel'));
      break;
    case 'cancel_refund':
      requests.push(organiser('cancel'), organiser('refund'));
      break;
    case 'refund_refund':
      requests.push(organiser('refund'), organiser('refund'));
      if (r() < 0.3) requests.push(organiser('refund'));
      break;
    case 'attendee_cancel_refund':
      requests.push(cancel, organiser('refund'));
      break;
    case 'step2_cancel':
      requests.push(['step 2', (url) => step2(url, paymentId)], organiser('cancel'));
      break;
    case 'notification_step2': {
      const notes = h.notificationsOf(paymentId);
      requests.push(['step 2', (url) => step2(url, paymentId)]);
      // order.paid, payment.captured, or both: each races step 2.
      const chosen = notes.filter(() => r() < 0.7);
      for (const note of chosen.length > 0 ? chosen : notes.slice(0, 1))
        requests.push([note.event, (url) => h.notify(url, note)]);
      break;
    }
    case 'transfer_cancel':
      requests.push(r() < 0.5 ? attendee('transfer', transferTo) : organiser('transfer', transferTo));
      requests.push(r() < 0.5 ? cancel : organiser('cancel'));
      break;
  }
  // Shuffled, then dealt to the two processes in turn: both processes get part of the group.
  for (let i = requests.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [requests[i], requests[j]] = [requests[j]!, requests[i]!];
  }
  const urls = h.urls();
  const first = Math.floor(r() * urls.length);
  const answers = await releasedTogether(
    h.rzp,
    requests.map(
      ([, send], i) =>
        () =>
          send(urls[(first + i) % urls.length]!),
    ),
    h.stalled,
  );

  h.trace?.(
    `race ${kind} on ${event.label}, order ${b.orderId}: ${answers.map((a, i) => `${requests[i]![0]} → ${answerOf(a)}`).join(', ')}`,
  );
  const f = h.figures;
  f.groups++;
  f.byKind[kind] = (f.byKind[kind] ?? 0) + 1;
  f.requests += answers.length;
  for (const a of answers) f.answers[answerOf(a)] = (f.answers[answerOf(a)] ?? 0) + 1;
  if (ENDING.includes(kind)) {
    const acted = answers.filter(ok).length;
    if (acted === 1) f.oneActed++;
    if (acted > 1)
      h.mismatch(
        `race ${kind} on the booking of order ${b.orderId}: ${acted} of ${answers.length} requests ended it (${answers.map(answerOf).join(', ')}); at most one may`,
      );
  }
}

// The door (docs/decisions/15-the-door.md): door passes (full key), the roster and sync (a door pass or
// a full key), and the door screen itself with its own script, style and QR decoder.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { FULL_ONLY, keyPrincipal, type AuthRule, type DoorPrincipal, type KeyPrincipal } from '../../http/auth.js';
import { describeError } from '../../http/error-handler.js';
import { notFound } from '../../lib/errors.js';
import { Nullable } from '../../http/schemas.js';
const Html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const htmlErrors = (statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Html('An HTML page naming the problem.')]));
import { DOOR_ASSETS, DOOR_SW, doorErrorPage, doorPage } from './door-page.js';
import * as doorSync from './door-sync.service.js';
import * as door from './door.service.js';

const E = Type.Ref('Error');
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const DOOR: AuthRule = { kind: 'door', keys: true };

/** Most scans one sync may carry; a device with more sends them in several, in order. */
export const MAX_SYNC_SCANS = 500;

const Scope = Type.Union(
  [
    Type.Object({ trackIndex: Type.Integer({ minimum: 0, maximum: 999, description: 'One track (session), 0-based as in `tracks`.' }) }, { additionalProperties: false }),
    Type.Object({ date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', maxLength: 10, description: 'One day (YYYY-MM-DD, in the event’s time zone).' }) }, { additionalProperties: false }),
    Type.Null(),
  ],
  { description: 'The check-in list the pass admits for: one track, one day, or (null) the whole event.' },
);

const Pass = Type.Object({
  id: Type.String(),
  label: Type.String(),
  scope: Scope,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
});

const Counts = Type.Object({ arrived: Type.Integer(), expected: Type.Integer() }, { description: 'People of confirmed bookings in, and expected.' });

const Member = Type.Object({
  index: Type.Integer(),
  key: Type.String({ description: 'sha256 (hex) of this person’s QR value; the primary’s is the entry’s key.' }),
  name: Type.String(),
  checkedIn: Type.Boolean(),
  checkedInAt: Nullable(Type.String({ format: 'date-time' })),
  checkedInBy: Nullable(Type.String({ description: 'Who admitted them: a door pass’s label (and device), “API key” or “Dashboard”.' })),
});

const Entry = Type.Object({
  key: Type.String({ description: 'sha256 (hex) of the booking’s QR value (its ticketCode after a transfer). Never the id itself.' }),
  refusal: Nullable(
    Type.Union([Type.Literal('cancelled'), Type.Literal('refunded'), Type.Literal('not_confirmed'), Type.Literal('wrong_session')], {
      description: '`wrong_session`: on a track’s or a day’s list, a ticket of another session.',
    }),
  ),
  ticketType: Type.String(),
  track: Nullable(Type.String()),
  session: Nullable(Type.String({ description: 'The session the ticket is valid for, as people read it (“Day 2 · Mon 21 Dec 2026, 6:30 – 9:00 pm IST”); null for a whole-event ticket.' })),
  retired: Type.Array(Type.String(), { description: 'sha256 (hex) of the booking’s QR values retired by transfers: the old QRs, shown as “transferred”.' }),
  members: Type.Array(Member),
});

const ScanResult = Type.Object({
  seq: Type.Integer(),
  status: Type.Union([Type.Literal('admitted'), Type.Literal('undone'), Type.Literal('already_admitted'), Type.Literal('refused')]),
  by: Type.Optional(Nullable(Type.String({ description: 'already_admitted: who admitted them first.' }))),
  at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'already_admitted: when.' }))),
  reason: Type.Optional(
    Type.String({ description: 'refused: `cancelled`, `refunded`, `not_confirmed`, `transferred`, `ticket_not_found`, `member_not_found`, `member_mismatch` or `invalid_qr`.' }),
  ),
  message: Type.Optional(Type.String()),
  session: Type.Optional(Nullable(Type.String({ description: 'refused `wrong_session`: the session the ticket is valid for.' }))),
});

function doorCaller(req: FastifyRequest): KeyPrincipal | DoorPrincipal {
  return req.doorPass ?? keyPrincipal(req);
}

export const doorRoutes =
  (deps: doorSync.DoorSyncDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // ------------------------------------------------------------ passes

    app.post(
      '/api/v1/events/:id/door-passes',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['check-in'],
          summary: 'Create a door pass: a link that opens this event’s door screen',
          description:
            'Answers the pass once with `url` (`{BASE_URL}/door/{token}`); the token (192 random bits) is never shown again — only its sha256 is kept. Anyone holding the link may look up, admit and undo at this one event’s door, and sees names, ticket types, tracks and check-in state, never email, phone, answers or money. `expiresAt` (optional) ends it; `DELETE` revokes it at once. The dashboard’s event page creates passes too.\n\n`scope` makes it a check-in list: `{ trackIndex }` admits that track’s tickets, `{ date }` the tickets of sessions on that day; whole-event tickets are admitted at every list. A ticket of another session is refused with `reason: wrong_session` and `session` (the session it is valid for). A booking is admitted once per list, so a two-day ticket is admitted on each day’s list. Without `scope` (or null) the pass admits for the whole event, whose admissions are the ones the API’s check-in, exports and analytics show. An unknown `trackIndex` is 404 `track_not_found`.',
          params: Params,
          body: Type.Object(
            {
              label: Type.String({ minLength: 1, maxLength: 80, description: 'Who or where it is for (“Gate A”), shown as who admitted someone.' }),
              expiresAt: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
              scope: Type.Optional(Scope),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ success: Type.Literal(true), data: Type.Object({ ...Pass.properties, url: Type.String() }) }), 404: E },
        },
      },
      async (req, reply) => reply.code(201).send({ success: true as const, data: await door.createPass(deps, keyPrincipal(req), req.params.id, req.body) }),
    );

    app.get(
      '/api/v1/events/:id/door-passes',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['check-in'],
          summary: 'List the event’s door passes (never their tokens)',
          params: Params,
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Array(Pass) }), 404: E },
        },
      },
      async (req) => ({ success: true as const, data: await door.listPasses(deps.db, keyPrincipal(req), req.params.id) }),
    );

    app.delete(
      '/api/v1/events/:id/door-passes/:passId',
      {
        config: { auth: FULL_ONLY },
        schema: {
          tags: ['check-in'],
          summary: 'Revoke a door pass at once',
          description: 'The next request made with it — page, roster or sync — answers 403 `door_pass_revoked`. Revoking again changes nothing.',
          params: Type.Object({ id: Type.String({ maxLength: 100 }), passId: Type.String({ maxLength: 100 }) }),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Pass }), 404: E },
        },
      },
      async (req) => ({ success: true as const, data: await door.revokePass(deps, keyPrincipal(req), req.params.id, req.params.passId) }),
    );

    // ------------------------------------------------------------ roster and sync

    app.get(
      '/api/v1/events/:id/door/roster',
      {
        config: { auth: DOOR },
        schema: {
          tags: ['check-in'],
          summary: 'The door’s roster, or its changes since a cursor',
          description: [
            'For the door screen’s offline mode: one entry per booking (every status; a refused one says why), keyed by `sha256(QR value)` in hex — never the ticket ids, so a lost phone mints no tickets. Names, ticket types, tracks and check-in state only: no email, phone, answers or money.',
            '`since` is the `cursor` of an earlier answer: the answer then holds only bookings written since (a booking may come again; take the newest). `full` says which it is. `counts` is always the whole list’s.',
            'A pass of a track’s or a day’s list (`list.scope`) sees every booking of the event, with `refusal: wrong_session` on the tickets of other sessions and each member’s check-in state on that list; such a roster is always read from the database. `retired` holds the hashes of old QRs of transferred tickets, so a device offline shows them as transferred.',
            'Limits: the whole event in one answer (no pages; the screen asks for the full roster once, then `since`); `since` at most 2,000 characters, and a cursor the service did not give is 400 `invalid_roster_cursor`. Requests made with one door pass count against `RATE_LIMIT_PER_MINUTE` together (429 with `Retry-After` beyond it), whichever device makes them.',
            'Answered from the instance’s in-memory roster of the event when it is known current (kept so through PostgreSQL LISTEN/NOTIFY and a version counter, docs/architecture/door-fast-path.md), else read from the database; the answers are the same. A change made through another instance shows once that instance’s notification has arrived (milliseconds); a change made through this one shows at once.',
            'Door pass (`Authorization: DoorPass <token>`, its own event only) or a full key.',
          ].join('\n\n'),
          params: Params,
          querystring: Type.Object({ since: Type.Optional(Type.String({ maxLength: 2000, pattern: '^[0-9]+:[0-9]+:[0-9,]*$', description: 'The `cursor` of an earlier answer (opaque).' })) }),
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              data: Type.Object({
                event: Type.Object({ id: Type.String(), title: Type.String() }),
                list: Type.Object({ scope: Scope, label: Type.String({ description: 'What the door admits for, as people read it.' }) }),
                cursor: Type.String(),
                full: Type.Boolean(),
                counts: Counts,
                entries: Type.Array(Entry),
              }),
            }),
            404: E,
          },
        },
      },
      async (req) => ({ success: true as const, data: await doorSync.roster(deps, doorCaller(req), req.params.id, req.query.since) }),
    );

    app.post(
      '/api/v1/events/:id/door/sync',
      {
        config: { auth: DOOR },
        schema: {
          tags: ['check-in'],
          summary: 'Apply a device’s scans in order (the door screen’s queue)',
          description: [
            `Each scan is decided exactly as \`POST /api/v1/events/{id}/check-in\` decides it, in the order given, at most ${MAX_SYNC_SCANS} per call. A scan names its ticket by \`ticketId\` (the QR value) or by \`ticketKey\` (the roster’s key, for a person found by name). \`at\` is the device’s time of the scan, kept for its own display; the admission is recorded at the service’s time of applying it.`,
            'Idempotent per (pass or key, `deviceId`, `seq`): a scan seen before answers what it answered the first time and changes nothing; another pass using the same device id has records of its own, so it cannot answer for that device. Per scan: `admitted`, `undone`, `already_admitted { by, at }` (someone, perhaps another device, admitted them first; `by` names a pass by its label and a device by a short label, never its id) or `refused { reason }` — the conflicts a device shows after coming back online.',
            'Each scan is checked on its own: a `ticketId` the door cannot read (empty, over 200 characters, control characters) answers `refused { reason: invalid_qr }`, an unknown one `refused { reason: ticket_not_found }`, and the scans after it still apply.',
            `Limits: at most ${MAX_SYNC_SCANS} scans per call and the request body at most 1 MiB (400 or 413 for the whole call beyond; send the rest in order in further calls); \`deviceId\` 1–64 characters of \`A-Za-z0-9_-\`; \`seq\` 0–2147483647; \`memberIndex\` 0–1000. Requests made with one door pass count against \`RATE_LIMIT_PER_MINUTE\` together (429 with \`Retry-After\` beyond it). Every admit is decided by the database (a conditional update, written together with the admits queued beside it), never by an instance’s memory, so two devices, on any instances, never both admit one person, and an undo always finds the admit it undoes.`,
          ].join('\n\n'),
          params: Params,
          body: Type.Object(
            {
              deviceId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Chosen by the device, stable across its syncs.' }),
              scans: Type.Array(
                Type.Object(
                  {
                    seq: Type.Integer({ minimum: 0, maximum: 2147483647, description: 'The device’s own increasing number for the scan.' }),
                    ticketId: Type.Optional(Type.String({ description: 'The QR value as scanned. Whatever it holds, it is answered on its own: one the door cannot read is `refused { reason: invalid_qr }`.' })),
                    ticketKey: Type.Optional(Type.String({ description: 'The roster’s key (sha256 hex) of a person found by name; one the roster does not hold is `refused { reason: ticket_not_found }`.' })),
                    memberIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
                    action: Type.Union([Type.Literal('admit'), Type.Literal('undo')]),
                    at: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
                  },
                  { additionalProperties: false },
                ),
                { maxItems: MAX_SYNC_SCANS },
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Object({ results: Type.Array(ScanResult), counts: Counts }) }), 404: E },
        },
      },
      async (req) => ({ success: true as const, data: await doorSync.sync(deps, doorCaller(req), req.params.id, req.body) }),
    );

    // ------------------------------------------------------------ the door screen

    const errorHandler = async (err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
      const e = describeError(err) ?? { status: 500, code: 'internal', message: 'internal error', headers: {} };
      if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'door page error');
      for (const [h, v] of Object.entries(e.headers)) reply.header(h, v);
      return pageHeaders(reply)
        .code(e.status)
        .type('text/html; charset=utf-8')
        .send(doorErrorPage(e.status >= 500 ? 'Something went wrong on our side. Please try again.' : e.message));
    };

    app.get(
      '/door/:token',
      {
        config: { auth: { kind: 'door' } },
        errorHandler,
        schema: {
          tags: ['check-in'],
          summary: 'The door screen of a door pass (HTML, for phones)',
          description: [
            'The link a door pass answers once. Phone-first: camera scanning (the browser’s `BarcodeDetector`, else jsQR served by the service), search by name or ticket code, Admit and Undo, team members one by one, refusals shown large with their reason and who/when for “already in”, and a live arrived/expected count.',
            'Offline: the roster (`GET …/door/roster`) is kept in the browser’s IndexedDB, keyed by sha256 of each QR value; admits and undos queue on the device and go to `POST …/door/sync` in order when the network returns, and the conflicts the service reports are shown. A service worker (`/door/sw.js`) keeps the page, its files and the roster, so a reload with no network still opens the screen.',
            'Headers: a `Content-Security-Policy` allowing only this service’s own script and style (no inline ones), `Referrer-Policy: no-referrer` (the token is in the URL), `Cache-Control: no-store`. A revoked or expired pass answers 403 as a page.',
          ].join('\n\n'),
          params: Type.Object({ token: Type.String({ maxLength: 100, description: 'The door pass’s token.' }) }),
          response: { 200: Html('The door screen.'), ...htmlErrors([400, 401, 403, 404, 429, 500]) } as never,
        },
      },
      async (req, reply) => {
        const p = req.doorPass!;
        const event = await door.doorEvent(deps, p);
        return pageHeaders(reply).type('text/html; charset=utf-8').send(doorPage({ eventId: event.id, title: event.title, label: p.label, list: event.list }));
      },
    );

    app.get(
      '/door/sw.js',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['check-in'],
          summary: 'The door screen’s service worker (its offline shell)',
          description:
            'Registered by the door screen with scope `/door/`: keeps the door page, its script, style and QR decoder, and the last whole roster (under a hash of the pass), so the screen opens again with no network. Pages and the roster are asked for from the network first; a pass refused (401, 403, 404) is forgotten at once. `Cache-Control: no-cache`, so a new version is picked up on the next visit.',
          response: { 200: { description: 'The script.', content: { 'text/javascript': { schema: { type: 'string' } } } }, 304: { description: 'Not modified.', type: 'null' } } as never,
        },
      },
      async (req, reply) => {
        reply
          .header('etag', DOOR_SW.etag)
          .header('cache-control', 'no-cache')
          .header('service-worker-allowed', '/door/')
          .header('content-security-policy', "default-src 'none'; connect-src 'self'")
          .header('x-content-type-options', 'nosniff');
        if (req.headers['if-none-match'] === DOOR_SW.etag) return reply.code(304).send();
        return reply.type('text/javascript; charset=utf-8').send(DOOR_SW.body);
      },
    );

    app.get(
      '/door/assets/:name',
      {
        config: { auth: { kind: 'public' } },
        schema: {
          tags: ['check-in'],
          summary: 'The door screen’s script, style and QR decoder',
          description: 'Versioned names (a hash of the content), cached for good; `If-None-Match` with the ETag answers 304.',
          params: Type.Object({ name: Type.String({ maxLength: 100 }) }),
          response: {
            200: { description: 'The file.', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
            304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' },
            404: E,
          } as never,
        },
      },
      async (req, reply) => {
        const asset = DOOR_ASSETS.find((a) => a.name === req.params.name);
        if (!asset) throw notFound('no such file');
        reply.header('etag', asset.etag).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff');
        if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
        return reply.type(asset.type).send(asset.body);
      },
    );
  };

// The dashboard's policy, with the camera's stream allowed to play; the token in the
// URL never leaves in a Referer.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', 'camera=(self), microphone=()')
    .header('cache-control', 'no-store');
}

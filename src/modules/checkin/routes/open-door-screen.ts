import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import type { Operation } from '../../../http/operation.js';
import { doorPage } from '../door-page.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as door from '../door.service.js';
import { Html, htmlErrors, pageHeaders, errorHandler } from './door-screen.js';

const examples: OperationExamples = {
  params: { token: EX.doorToken },
  responses: {
    '200':
      '<!doctype html><html lang="en-IN"><head><title>Door: Pune Tech Summit 2027</title></head><body>…</body></html>',
  },
};

export const openDoorScreen: Operation<DoorSyncDeps> = (app, deps) =>
  app.get(
    '/door/:token',
    {
      config: { auth: { kind: 'door' }, examples },
      errorHandler,
      schema: {
        operationId: 'openDoorScreen',
        tags: ['check-in'],
        summary: 'The door screen of a door pass (HTML, for phones)',
        description: [
          'The link a door pass answers once. Phone-first: camera scanning (the browser’s `BarcodeDetector`, else jsQR served by the service), search by name or ticket code, Admit and Undo, team members one by one, refusals shown large with their reason and who/when for “already in”, and a live arrived/expected count.',
          'Offline: the roster (`GET …/door/roster`) is kept in the browser’s IndexedDB, keyed by sha256 of each QR value; admits and undos queue on the device and go to `POST …/door/sync` in order when the network returns, and the conflicts the service reports are shown. A service worker (`/door/sw.js`) keeps the page, its files and the roster, so a reload with no network still opens the screen.',
          'Headers: a `Content-Security-Policy` allowing only this service’s own script and style (no inline ones), `Referrer-Policy: no-referrer` (the token is in the URL), `Cache-Control: no-store`. A revoked or expired pass answers 403 as a page.',
        ].join('\n\n'),
        params: Type.Object({
          token: Type.String({ maxLength: 100, description: 'The door pass’s token.' }),
        }),
        response: { 200: Html('The door screen.'), ...htmlErrors([400, 401, 403, 404, 429, 500]) } as never,
      },
    },
    async (req, reply) => {
      const p = req.doorPass!;
      const event = await door.doorEvent(deps, p);
      return pageHeaders(reply)
        .type('text/html; charset=utf-8')
        .send(doorPage({ eventId: event.id, title: event.title, label: p.label, list: event.list }));
    },
  );

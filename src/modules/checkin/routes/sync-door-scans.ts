import { Type } from 'typebox';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import type { DoorSyncDeps } from '../door-sync.service.js';
import * as doorScans from '../door-scans.service.js';
import { E, Params, DOOR, MAX_SYNC_SCANS, Counts, ScanResult, doorCaller } from './door-api.js';

const examples: OperationExamples = {
  requests: {
    default: {
      value: { deviceId: 'gate-a-phone', scans: [{ seq: 1, ticketId: EX.registrationId, action: 'admit' }] },
    },
  },
  responses: {
    '200': {
      success: true,
      data: { results: [{ seq: 1, status: 'admitted' }], counts: { arrived: 1, expected: 2 } },
    },
  },
};

/** A device's queue of scans, in its order. */
const SyncBody = Type.Object(
  {
    deviceId: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'Chosen by the device, stable across its syncs.',
    }),
    scans: Type.Array(
      Type.Object(
        {
          seq: Type.Integer({
            minimum: 0,
            maximum: 2147483647,
            description: 'The device’s own increasing number for the scan.',
          }),
          ticketId: Type.Optional(
            Type.String({
              description:
                'The QR value as scanned. Whatever it holds, it is answered on its own: one the door cannot read is `refused { reason: invalid_qr }`.',
            }),
          ),
          ticketKey: Type.Optional(
            Type.String({
              description:
                'The roster’s key (sha256 hex) of a person found by name; one the roster does not hold is `refused { reason: ticket_not_found }`.',
            }),
          ),
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
);

export const syncDoorScans: Operation<DoorSyncDeps> = (app, deps) =>
  app.post(
    '/api/v1/events/:id/door/sync',
    {
      config: { auth: DOOR, examples },
      schema: {
        operationId: 'syncDoorScans',
        tags: ['check-in'],
        summary: 'Apply a device’s scans in order (the door screen’s queue)',
        description: [
          `Each scan is decided exactly as \`POST /api/v1/events/{id}/check-in\` decides it, in the order given, at most ${MAX_SYNC_SCANS} per call. A scan names its ticket by \`ticketId\` (the QR value) or by \`ticketKey\` (the roster’s key, for a person found by name). \`at\` is the device’s time of the scan, kept for its own display; the admission is recorded at the service’s time of applying it.`,
          'Idempotent per (pass or key, `deviceId`, `seq`): a scan seen before answers what it answered the first time and changes nothing; another pass using the same device id has records of its own, so it cannot answer for that device. Per scan: `admitted`, `undone`, `already_admitted { by, at }` (someone, perhaps another device, admitted them first; `by` names a pass by its label and a device by a short label, never its id) or `refused { reason }` — the conflicts a device shows after coming back online.',
          'Each scan is checked on its own: a `ticketId` the door cannot read (empty, over 200 characters, control characters) answers `refused { reason: invalid_qr }`, an unknown one `refused { reason: ticket_not_found }`, and the scans after it still apply.',
          `Limits: at most ${MAX_SYNC_SCANS} scans per call and the request body at most 1 MiB (400 or 413 for the whole call beyond; send the rest in order in further calls); \`deviceId\` 1–64 characters of \`A-Za-z0-9_-\`; \`seq\` 0–2147483647; \`memberIndex\` 0–1000. Requests made with one door pass count against \`RATE_LIMIT_PER_MINUTE\` together (429 with \`Retry-After\` beyond it). Every admit is decided by the database (a conditional update, written together with the admits queued beside it), never by an instance’s memory, so two devices, on any instances, never both admit one person, and an undo always finds the admit it undoes.`,
        ].join('\n\n'),
        params: Params,
        body: SyncBody,
        response: {
          200: answer(
            Type.Object({
              success: Type.Literal(true),
              data: Type.Object({ results: Type.Array(ScanResult), counts: Counts }),
            }),
            'What each scan did, in order, and the door’s counts.',
          ),
          404: E,
        },
      },
    },
    async (req) => ({
      success: true as const,
      data: await doorScans.sync(deps, doorCaller(req), req.params.id, req.body),
    }),
  );

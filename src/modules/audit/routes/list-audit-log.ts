import type { ReadPool } from '../../../db/read-pool.js';
import { lagHeaderValue, READ_POOL_NOTE, REPLICA_LAG_HEADER } from '../../../db/replica-lag.js';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { FULL_ONLY, keyPrincipal } from '../../../http/auth.js';
import { EX, type OperationExamples } from '../../../http/examples.js';
import { answer, type Operation } from '../../../http/operation.js';
import { PageFields, PageQuery, parseLimit } from '../../../http/paging.js';
import * as audit from '../audit.service.js';

const examples: OperationExamples = {
  params: { targetType: 'event', limit: '2' },
  responses: {
    '200': {
      success: true,
      data: [
        {
          id: 'aud_ArPJUiqzCyWDuiAy3MvV7w',
          at: '2026-11-25T09:25:05.205Z',
          actor: { kind: 'key', id: EX.keyId, display: 'sk_test_haHt' },
          action: 'event.publish',
          target: { type: 'event', id: EX.eventId },
          before: { status: 'draft' },
          after: { status: 'published' },
        },
        {
          id: 'aud_ONBR6XAnrSz9j7vnQkKb0A',
          at: '2026-11-25T09:25:04.117Z',
          actor: { kind: 'key', id: EX.keyId, display: 'sk_test_haHt' },
          action: 'event.update',
          target: { type: 'event', id: EX.eventId },
          before: { title: 'Pune meetup', capacity: 80 },
          after: { title: 'Pune PostgreSQL meetup', capacity: 120 },
        },
      ],
      hasMore: true,
      nextCursor: '27',
    },
  },
};

/** What the audit log route needs. */
export interface AuditDeps {
  db: Kysely<Database>;
  /** Where the log is read (src/db/read-pool.ts): a replica, or the primary. */
  reads: ReadPool;
  describe: { keys: audit.DescribeKeys; users: audit.DescribeUsers };
}

export const AUDIT_DESCRIPTION =
  'Every change made by a person (the organiser in the dashboard, staff), an API key, a door pass or the attendee on their own page — events, tracks, bookings (approve, reject, cancel, refund, transfer, forced deletion), check-in admits and undos, door passes, keys, the webhook configuration, plans and memberships, payouts, broadcasts, staff grants — with its actor, time, target and a short before/after. Appended by the change itself in its transaction; the database refuses to change or delete an entry. Secrets (keys, signing secrets, password hashes, tokens) never appear in before/after.';

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Object({
    kind: Type.Union(
      [
        Type.Literal('user'),
        Type.Literal('key'),
        Type.Literal('door_pass'),
        Type.Literal('staff'),
        Type.Literal('attendee'),
        Type.Literal('system'),
      ],
      {
        description:
          '`user` is the organiser in the dashboard (or with a session), `key` an API key, `door_pass` a door pass, `staff` the platform’s staff, `attendee` the booking’s holder on their own page, `system` the service itself.',
      },
    ),
    id: Type.String({
      description: 'The user, key, door pass or registration id; for `system`, the reason.',
    }),
    display: Type.String({ description: 'How to show it: an email, a key’s prefix, a door pass.' }),
  }),
  action: Type.String({
    description: '`<target>.<verb>`, e.g. `event.publish`, `registration.refund`, `key.revoke`.',
  }),
  target: Type.Object({
    type: Type.String({
      description:
        '`event`, `track`, `registration`, `attendee`, `key`, `webhook_config`, `door_pass`, `plan`, `membership`, `payout`, `broadcast`, `account`.',
    }),
    id: Type.String(),
  }),
  before: Type.Unknown({ description: 'What the target was (a short object), or null.' }),
  after: Type.Unknown({ description: 'What it became, or null.' }),
});

export const listAuditLog: Operation<AuditDeps> = (app, deps) =>
  app.get(
    '/api/v1/audit-log',
    {
      config: { auth: FULL_ONLY, examples },
      schema: {
        operationId: 'listAuditLog',
        tags: ['audit'],
        summary: "This account's audit log in the key's mode, newest first, a page at a time",
        description: `${AUDIT_DESCRIPTION} At most \`limit\` entries (default 100, at most 1,000); read on with \`startingAfter=<nextCursor>\`. Filter by \`targetType\`, \`targetId\` and \`action\`. ${READ_POOL_NOTE}`,
        querystring: Type.Object(
          {
            ...PageQuery,
            targetType: Type.Optional(
              Type.String({ maxLength: 40, description: 'Only entries about targets of this type.' }),
            ),
            targetId: Type.Optional(
              Type.String({ maxLength: 100, description: 'Only entries about this target.' }),
            ),
            action: Type.Optional(
              Type.String({ maxLength: 60, description: 'Only entries of this action.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: answer(
            Type.Object({ success: Type.Literal(true), data: Type.Array(AuditEntry), ...PageFields }),
            'A page of the audit log of the key’s account and mode, newest first: who changed what, when, and the fields before and after.',
          ),
        },
      },
    },
    async (req, reply) => {
      const p = keyPrincipal(req);
      const page = await audit.listChanges(deps.reads.db, deps.describe, {
        accountId: p.userId,
        mode: p.mode,
        targetType: req.query.targetType,
        targetId: req.query.targetId,
        action: req.query.action,
        startingAfter: req.query.startingAfter,
        limit: parseLimit(req.query.limit),
      });
      reply.header(REPLICA_LAG_HEADER, lagHeaderValue(await deps.reads.lagSeconds()));
      return { success: true as const, data: page.items, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
  );

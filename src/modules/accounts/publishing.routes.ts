// The organiser's side of publishing access: ask (with a short message) and read the answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { sessionPrincipal } from '../../http/auth.js';
import { getUser } from './accounts.service.js';
import * as publishing from './publishing.js';
import { PublishingRequest, RequestMessage } from './publishing.schemas.js';

export const publishingRoutes =
  (deps: {
    db: Kysely<Database>;
    clock: Clock;
    ids: Ids;
    jobs: { kick(): void };
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const session = { auth: { kind: 'session' } } as const;

    app.get(
      '/dashboard/api/publishing-access',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: 'Whether this account may publish live events, and its requests for access',
          description:
            'Test events publish without access (they are never public); live events need it. `requests` are the account’s latest 20, newest first; a declined one carries the staff’s `reason`.',
          response: {
            200: Type.Object({
              success: Type.Literal(true),
              canPublish: Type.Boolean(),
              requests: Type.Array(PublishingRequest),
            }),
          },
        },
      },
      async (req) => {
        const userId = sessionPrincipal(req).userId;
        const [user, rows] = await Promise.all([
          getUser(deps.db, userId),
          publishing.requestsOf(deps.db, userId),
        ]);
        return {
          success: true as const,
          canPublish: user.can_publish,
          requests: rows.map(publishing.presentRequest),
        };
      },
    );

    app.post(
      '/dashboard/api/publishing-access',
      {
        config: session,
        schema: {
          tags: ['dashboard'],
          summary: 'Request publishing access (to publish live events)',
          description:
            'Files a request that platform staff review (`GET /admin/api/publishing-requests`); they grant or decline it with a reason, and the account’s address is mailed either way. One request waits at a time: 409 `publishing_request_pending` while one does, 409 `already_can_publish` when the account may publish already. A declined account may ask again. Nothing else waits on it: test events publish without access.',
          body: Type.Object({ message: RequestMessage }, { additionalProperties: false }),
          response: {
            201: Type.Object({ success: Type.Literal(true), data: PublishingRequest }),
            409: Type.Ref('Error'),
          },
        },
      },
      async (req, reply) => {
        const row = await publishing.requestPublishing(deps, sessionPrincipal(req).userId, req.body.message);
        req.log.info({ userId: row.user_id, requestId: row.id }, 'publishing access requested');
        return reply.code(201).send({ success: true as const, data: publishing.presentRequest(row) });
      },
    );
  };

// What the webhooks operations share: the deps type, schemas and helpers of routes/.
import { Type, type TSchema } from 'typebox';
import { PageFields } from '../../../http/paging.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';
import type { Config } from '../../../config.js';

/** What the webhooks operations need. */
export type WebhooksRouteDeps = { db: Kysely<Database>; clock: Clock; ids: Ids; config: Config };

export const WebhookConfig = Type.Object({
  url: Type.String(),
  enabled: Type.Boolean(),
  secretSet: Type.Boolean({
    description: 'Always true once configured; the secret itself is never read back.',
  }),
  events: Type.Array(Type.String()),
});

export const PageOf = <T extends TSchema>(item: T) =>
  Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    count: Type.Integer({ description: 'The total number of items (all pages).' }),
    ...PageFields,
  });

// The key as the dashboard's key operations answer it (never the secret).
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import type { Ids } from '../../../lib/ids.js';
import type { KeyCache, KeyRow } from '../keys.service.js';

/** What the key operations need. */
export interface KeysDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  keyCache: KeyCache;
}

/** Every key operation is the signed-in organiser's. */
export const SESSION = { kind: 'session' } as const;

export const Key = Type.Object({
  id: Type.String(),
  name: Type.String(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  class: Type.Union([Type.Literal('full'), Type.Literal('checkout')]),
  allowedOrigin: Type.Union([Type.String(), Type.Null()]),
  prefix: Type.String({
    description: 'The first characters of the key, for recognising it; the key itself is never stored.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export function presentKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    class: row.class,
    allowedOrigin: row.allowed_origin,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

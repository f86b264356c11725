// API keys: `sk_` full and `pk_` checkout, `_test_`/`_live_` by mode, 192 random bits.
// Only sha256(key) is stored, with a short display prefix for the dashboard.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, KeyClass, Mode } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { requireVerifiedEmail } from '../accounts/accounts.service.js';
import * as audit from '../audit/audit.service.js';
import * as repo from './keys.repo.js';
import type { KeyRow } from './keys.repo.js';

export type { KeyRow };

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefixFor(keyClass: KeyClass, mode: Mode): string {
  return `${keyClass === 'full' ? 'sk' : 'pk'}_${mode}_`;
}

/** `https://shop.example.in/` → `https://shop.example.in`; anything else is refused. */
export function normaliseOrigin(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw badRequest('invalid_origin', 'allowedOrigin must be an origin such as https://shop.example.in');
  }
  if (
    (u.protocol !== 'https:' && u.protocol !== 'http:') ||
    u.username ||
    u.password ||
    (u.pathname !== '/' && u.pathname !== '') ||
    u.search ||
    u.hash
  ) {
    throw badRequest(
      'invalid_origin',
      'allowedOrigin must be a scheme and host only, such as https://shop.example.in',
    );
  }
  return u.origin;
}

/**
 * Keys in use (not revoked) an account may hold per mode. Each key has its own request limit
 * and the account one over them all; the cap keeps the list of keys one can review and revoke.
 */
export const MAX_LIVE_KEYS_PER_MODE = 50;

export interface CreateKeyInput {
  name?: string | undefined;
  mode: Mode;
  keyClass: KeyClass;
  allowedOrigin?: string | undefined;
}

export async function createKey(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids },
  s: { userId: string; email: string; isStaff: boolean },
  input: CreateKeyInput,
): Promise<{ row: KeyRow; key: string }> {
  const userId = s.userId;
  if (input.allowedOrigin !== undefined && input.keyClass !== 'checkout') {
    throw badRequest(
      'origin_needs_checkout_key',
      'allowedOrigin may only be set on a checkout key; full keys stay on a server',
    );
  }
  const allowedOrigin = input.allowedOrigin === undefined ? null : normaliseOrigin(input.allowedOrigin);
  // Live keys move real money: the account must have proved its address first. Test keys work at once.
  if (input.mode === 'live') await requireVerifiedEmail(deps.db, userId, 'create a live key');
  const key = keyPrefixFor(input.keyClass, input.mode) + deps.ids.secret(24);
  const row: KeyRow = {
    id: deps.ids.make('key', 12),
    user_id: userId,
    name: input.name?.trim() || `${input.mode} ${input.keyClass} key`,
    mode: input.mode,
    class: input.keyClass,
    allowed_origin: allowedOrigin,
    prefix: key.slice(0, 12),
    created_at: deps.clock.now(),
    revoked_at: null,
    last_used_at: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    // Counted and inserted under the account's and mode's lock: concurrent creations cannot pass the cap together.
    await repo.lockKeys(trx, userId, row.mode);
    if ((await repo.countLiveKeys(trx, userId, row.mode)) >= MAX_LIVE_KEYS_PER_MODE) {
      throw conflict(
        'key_limit',
        `this account has ${MAX_LIVE_KEYS_PER_MODE} ${row.mode} keys in use, as many as it may; revoke one it no longer needs first`,
        { limit: MAX_LIVE_KEYS_PER_MODE },
      );
    }
    await repo.insertKey(trx, { ...row, key_hash: hashKey(key) });
    await audit.recordChange(trx, deps, {
      accountId: userId,
      mode: row.mode,
      actor: audit.actorOfSession(s),
      action: 'key.create',
      target: { type: 'key', id: row.id },
      after: keyFacts(row),
    });
  });
  return { row, key };
}

/** The display prefixes of these keys (the audit log shows keys by them). */
export const prefixesOf = repo.prefixesOf;

export const listKeys = (db: Kysely<Database>, userId: string) => repo.listKeys(db, userId);

/** What the audit log keeps of a key: never its hash (a key's secret is never stored). */
const keyFacts = (row: KeyRow) => ({
  name: row.name,
  mode: row.mode,
  class: row.class,
  prefix: row.prefix,
  allowedOrigin: row.allowed_origin,
  revokedAt: row.revoked_at,
});

export async function revokeKey(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids; keyCache: KeyCache },
  s: { userId: string; email: string; isStaff: boolean },
  keyId: string,
): Promise<KeyRow> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const at = deps.clock.now();
    const revoked = await repo.revokeKey(trx, s.userId, keyId, at);
    // Revoking a revoked key changes nothing and records nothing.
    if (revoked && revoked.revoked_at?.getTime() === at.getTime()) {
      await audit.recordChange(trx, deps, {
        accountId: s.userId,
        mode: revoked.mode,
        actor: audit.actorOfSession(s),
        action: 'key.revoke',
        target: { type: 'key', id: revoked.id },
        before: { ...keyFacts(revoked), revokedAt: null },
        after: keyFacts(revoked),
      });
    }
    return revoked;
  });
  if (!row) throw notFound('no such key on this account', 'key_not_found');
  deps.keyCache.forget(row.id);
  return row;
}

/**
 * Known keys, remembered for a few seconds so the door and the checkout do not pay a
 * database round trip per request. Revoking a key forgets it at once in this process;
 * other instances stop accepting it within KEY_CACHE_MS. Unknown keys are never cached.
 */
export const KEY_CACHE_MS = 3000;
const KEY_CACHE_MAX = 10_000;

/** A key's "last used" is written at most this often (per key and process). */
export const KEY_TOUCH_MS = 60_000;

export class KeyCache {
  readonly #entries = new Map<string, { row: KeyRow; until: number }>();
  /** Lookups under way, by hash: requests that miss at the same moment share one. */
  readonly #loading = new Map<string, Promise<KeyRow | undefined>>();
  /** When this process last wrote each key's last use. */
  readonly #touched = new Map<string, number>();
  /** Raised by every forget: a lookup that began before it does not fill the cache. */
  #generation = 0;
  get generation(): number {
    return this.#generation;
  }
  get(hash: string, now: number): KeyRow | undefined {
    const e = this.#entries.get(hash);
    if (!e) return undefined;
    if (e.until <= now) {
      this.#entries.delete(hash);
      return undefined;
    }
    return e.row;
  }
  set(hash: string, row: KeyRow, now: number, generation = this.#generation): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= KEY_CACHE_MAX) this.#entries.clear();
    this.#entries.set(hash, { row, until: now + KEY_CACHE_MS });
  }
  forget(keyId: string): void {
    this.#generation++;
    this.#loading.clear();
    for (const [hash, e] of this.#entries) if (e.row.id === keyId) this.#entries.delete(hash);
  }
  /** The lookup of `hash` under way, or a new one started with `load`. */
  load(hash: string, load: () => Promise<KeyRow | undefined>): Promise<KeyRow | undefined> {
    let p = this.#loading.get(hash);
    if (!p) {
      const loading = load().finally(() => {
        if (this.#loading.get(hash) === loading) this.#loading.delete(hash);
      });
      this.#loading.set(hash, loading);
      p = loading;
    }
    return p;
  }
  /** Whether the key's last use is due to be written (and, if so, counts it as written now). */
  touchDue(keyId: string, now: number): boolean {
    const last = this.#touched.get(keyId);
    if (last !== undefined && now - last < KEY_TOUCH_MS && now >= last) return false;
    if (this.#touched.size >= KEY_CACHE_MAX) this.#touched.clear();
    this.#touched.set(keyId, now);
    return true;
  }
}

export async function findKey(
  db: Kysely<Database>,
  keyCache: KeyCache,
  presented: string,
  now: number = Date.now(),
): Promise<KeyRow | undefined> {
  // Cheap shape check first: nothing that cannot be a key reaches the database.
  if (!/^(sk|pk)_(test|live)_[A-Za-z0-9_-]{16,64}$/.test(presented)) return undefined;
  const hash = hashKey(presented);
  const cached = keyCache.get(hash, now);
  if (cached) return cached;
  return keyCache.load(hash, async () => {
    const generation = keyCache.generation;
    const row = await repo.findKeyByHash(db, hash);
    if (row) {
      keyCache.set(hash, row, now, generation);
      // The dashboard's "last used" is accurate to a minute: written at most once a minute
      // per key by each process (and by the database's own condition across processes).
      if (row.revoked_at === null && keyCache.touchDue(row.id, now))
        await repo.touchKey(db, row.id, new Date(now));
    }
    return row;
  });
}

export const isPinnedOrigin = repo.isPinnedOrigin;

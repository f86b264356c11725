import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';

/** What a repo function queries through: the pool, or the caller's open transaction. */
export type Db = Kysely<Database> | Transaction<Database>;

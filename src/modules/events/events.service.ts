import type { Kysely } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import * as repo from './events.repo.js';

export const countEventsByStatus = (db: Kysely<Database>, accountId: string, mode: Mode) => repo.countByStatus(db, accountId, mode);

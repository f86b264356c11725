// Queries on the table the statements module owns: statement_mappings (one per account).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import type { StatementMappingDoc } from './statements.tables.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** The mapping the account's last upload used, if any. */
export async function findMapping(db: Db, accountId: string): Promise<StatementMappingDoc | undefined> {
  const row = await db
    .selectFrom('statement_mappings')
    .select('mapping')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.mapping;
}

/** Remembers `mapping` for the account's next upload (the last one wins). */
export async function saveMapping(db: Db, accountId: string, mapping: StatementMappingDoc, at: Date) {
  const value = JSON.stringify(mapping);
  await db
    .insertInto('statement_mappings')
    .values({ account_id: accountId, mapping: value, updated_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ mapping: value, updated_at: at }))
    .execute();
}

// Queries on payouts, payout_contacts and payout_fund_accounts, taking db or trx.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, Mode, PayoutsTable } from '../../db/database.js';

type Db = Kysely<Database> | Transaction<Database>;
export type PayoutRow = Selectable<PayoutsTable>;

export async function insertPayout(
  db: Db,
  p: {
    id: string;
    accountId: string;
    mode: Mode;
    amountPaise: number;
    upiId: string;
    expectedBy: Date;
    at: Date;
  },
): Promise<PayoutRow> {
  return db
    .insertInto('payouts')
    .values({
      id: p.id,
      account_id: p.accountId,
      mode: p.mode,
      amount_paise: p.amountPaise,
      upi_id: p.upiId,
      status: 'processing',
      gateway_payout_id: null,
      gateway_status: null,
      utr: null,
      failure_reason: null,
      expected_by: p.expectedBy,
      created_at: p.at,
      updated_at: p.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findPayout(db: Db, id: string) {
  return db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockPayout(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('payouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findByGatewayId(db: Db, gatewayPayoutId: string) {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('gateway_payout_id', '=', gatewayPayoutId)
    .executeTakeFirst();
}

export async function updatePayout(
  db: Db,
  id: string,
  set: Partial<
    Pick<PayoutRow, 'status' | 'gateway_payout_id' | 'gateway_status' | 'utr' | 'failure_reason'>
  > & { updated_at: Date },
): Promise<PayoutRow | undefined> {
  return db.updateTable('payouts').set(set).where('id', '=', id).returningAll().executeTakeFirst();
}

export function page(db: Db, accountId: string, mode: Mode, limit: number, before: string | undefined) {
  let q = db.selectFrom('payouts').selectAll().where('account_id', '=', accountId).where('mode', '=', mode);
  if (before !== undefined) q = q.where('seq', '<', before);
  return q
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Live payouts still processing at the gateway and untouched since `before`. */
export function stuckPayouts(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('status', '=', 'processing')
    .where('mode', '=', 'live')
    .where('gateway_payout_id', 'is not', null)
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

export async function contactOf(db: Db, accountId: string): Promise<string | undefined> {
  return (
    await db
      .selectFrom('payout_contacts')
      .select('contact_id')
      .where('account_id', '=', accountId)
      .executeTakeFirst()
  )?.contact_id;
}

export async function saveContact(db: Db, accountId: string, contactId: string, at: Date): Promise<string> {
  await db
    .insertInto('payout_contacts')
    .values({ account_id: accountId, contact_id: contactId, created_at: at })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  return (await contactOf(db, accountId))!;
}

export async function fundAccountOf(db: Db, accountId: string, upiId: string): Promise<string | undefined> {
  return (
    await db
      .selectFrom('payout_fund_accounts')
      .select('fund_account_id')
      .where('account_id', '=', accountId)
      .where('upi_id', '=', upiId)
      .executeTakeFirst()
  )?.fund_account_id;
}

export async function saveFundAccount(
  db: Db,
  accountId: string,
  upiId: string,
  fundAccountId: string,
  at: Date,
): Promise<string> {
  await db
    .insertInto('payout_fund_accounts')
    .values({ account_id: accountId, upi_id: upiId, fund_account_id: fundAccountId, created_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'upi_id']).doNothing())
    .execute();
  return (await fundAccountOf(db, accountId, upiId))!;
}

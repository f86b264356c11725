// The ledger's entries for sales paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// the gross as `offline_sale` (the organiser holds that money; it is never payable and never
// counted in a balance) and the platform fee against the balance at once, which may take it
// below zero (payouts then wait until it is positive again). An offline refund reverses both.
// Written in the transaction of the change that causes them; idempotent like every writer.
import type { Kysely, Transaction } from 'kysely';
import type { Database, Mode } from '../../db/database.js';
import { offlineRefundLines, offlineSaleLines } from './entries.js';
import * as repo from './ledger.repo.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function recordOfflineSale(
  trx: Db,
  input: {
    accountId: string;
    mode: Mode;
    registrationId: string;
    grossPaise: number;
    platformFeePaise: number;
    at: Date;
  },
): Promise<void> {
  await repo.insertEntries(
    trx,
    offlineSaleLines(input.grossPaise, input.platformFeePaise).map((l) => ({
      ...l,
      accountId: input.accountId,
      mode: input.mode,
      sourceType: 'registration',
      sourceId: input.registrationId,
      // Nothing to clear: the fee counts against the balance at once.
      capturedAt: null,
      createdAt: input.at,
    })),
  );
}

/** An offline sale refunded in full: its gross back and its platform fee reversed, from the sale's own entries. */
export async function recordOfflineRefund(
  trx: Db,
  input: { registrationId: string; at: Date },
): Promise<void> {
  const entries = await repo.entriesOf(trx, 'registration', input.registrationId);
  const sale = entries.find((e) => e.kind === 'offline_sale');
  if (!sale) return;
  const fee = -Number(entries.find((e) => e.kind === 'platform_fee')?.amount_paise ?? 0);
  await repo.insertEntries(
    trx,
    offlineRefundLines(Number(sale.amount_paise), fee).map((l) => ({
      ...l,
      accountId: sale.account_id,
      mode: sale.mode,
      sourceType: 'registration',
      sourceId: input.registrationId,
      capturedAt: null,
      createdAt: input.at,
    })),
  );
}

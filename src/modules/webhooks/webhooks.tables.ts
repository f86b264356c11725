// The webhooks module's tables: their row types, and in WebhooksTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp, Json, Mode } from '../../db/columns.js';

/** The tables the webhooks module owns. */
export interface WebhooksTables {
  webhook_configs: WebhookConfigsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type WebhookEventType = 'registration.confirmed' | 'subscription.authenticated' | 'waitlist.offered';

export interface WebhookConfigsTable {
  account_id: string;
  mode: Mode;
  url: string;
  enabled: boolean;
  events: Json<WebhookEventType[]>;
  secret_sealed: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  mode: Mode;
  event_id: string;
  type: string;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Timestamp;
}

// The whatsapp module's tables: their row types, and in WhatsAppTables the tables it owns (only its
// repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Timestamp } from '../../db/columns.js';

/** The tables the whatsapp module owns. */
export interface WhatsAppTables {
  whatsapp_messages: WhatsAppMessagesTable;
}

/** `unsent`: the Cloud API was not reached or refused the last try (retried as mail is); then its webhooks' statuses. */
export type WhatsAppStatus = 'unsent' | 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

export interface WhatsAppMessagesTable {
  /** Ours (`wam_…`), sent as `biz_opaque_callback_data` so a status can be matched even if the send's answer was lost. */
  id: string;
  registration_id: string;
  phone: string;
  /** The Cloud API's message id, once it accepted the message. */
  wamid: string | null;
  status: WhatsAppStatus;
  status_at: Timestamp;
  /** The Cloud API's error code of a refusal or a `failed` status. */
  error_code: number | null;
  created_at: Timestamp;
}

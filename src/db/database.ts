// Table types for Kysely. Each module owns its tables; only its repo queries them.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type Mode = 'test' | 'live';
export type KeyClass = 'full' | 'checkout';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  phone: string | null;
  is_organizer: Generated<boolean>;
  can_publish: Generated<boolean>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  mode: Mode;
  class: KeyClass;
  allowed_origin: string | null;
  key_hash: string;
  prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface JobsTable {
  id: string;
  topic: string;
  payload: Json<unknown>;
  status: Generated<'pending' | 'done' | 'failed'>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface TierDoc {
  name: string;
  pricePaise: number;
  capacity: number;
  membersOnly: boolean;
  availableFrom: string | null;
  availableUntil: string | null;
}

export interface TrackDoc {
  title: string;
  pricePaise: number;
  capacity: number;
  date: string | null;
}

export interface CustomFieldDoc {
  name: string;
  label: string;
  type: 'text' | 'number' | 'email' | 'select' | 'checkbox';
  required: boolean;
  options: string[] | null;
}

export type EventStatus = 'draft' | 'published';
export type RegistrationStatus = 'pending' | 'confirmed' | 'cancelled' | 'refunded';

export interface EventsTable {
  id: string;
  account_id: string;
  mode: Mode;
  slug: string;
  status: EventStatus;
  title: string;
  description: string;
  start_date: string | null;
  start_at: Timestamp | null;
  end_date: string | null;
  location: string | null;
  capacity: number;
  price_paise: number;
  currency: string;
  max_team_size: number;
  requires_approval: boolean;
  custom_fields: Json<CustomFieldDoc[]>;
  special_prices: Json<TierDoc[]>;
  tracks: Json<TrackDoc[]>;
  ticket_emails_enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RegistrationsTable {
  id: string;
  event_id: string;
  account_id: string;
  mode: Mode;
  status: RegistrationStatus;
  name: string;
  email: string;
  phone: string | null;
  ticket_type: string;
  sub_event_id: number | null;
  quantity: number;
  amount_paise: number;
  currency: Generated<string>;
  platform_fee_paise: Generated<number>;
  gateway_fee_paise: Generated<number>;
  custom_fields: Json<Record<string, unknown>>;
  promo_code: string | null;
  ticket_code: string | null;
  checked_in_at: Timestamp | null;
  created_at: Timestamp;
  confirmed_at: Timestamp | null;
}

export interface Database {
  events: EventsTable;
  registrations: RegistrationsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
}

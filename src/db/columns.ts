// Column types every module's tables use (src/modules/*/*.tables.ts); the lowest layer.
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Json<T> = ColumnType<T, string, string>;

export type Mode = 'test' | 'live';

/** A member's role in an organisation (docs/decisions/25-organiser-teams-and-roles.md). */
export type Role = 'owner' | 'admin' | 'finance' | 'event_manager' | 'door' | 'viewer';

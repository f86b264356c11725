// Column types every module's tables use (src/modules/*/*.tables.ts); the lowest layer.
import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Json<T> = ColumnType<T, string, string>;

export type Mode = 'test' | 'live';

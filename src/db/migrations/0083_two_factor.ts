import { type Kysely, sql } from 'kysely';

// Two-factor sign-in (docs/decisions/25-organiser-teams-and-roles.md). A person's TOTP secret is
// kept sealed under SECRETS_KEY (never readable in the table); `enabled_at` stays null until the
// first valid code confirms enrolment; `last_step` is the time step of the last code accepted,
// so a code is never taken twice. Recovery codes are kept as sha256 hashes, each used once. An
// organisation (its founding account's users row) may require two-factor of its members.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('two_factor_recovery_codes_pkey', ['user_id', 'code_hash'])
    .execute();
  await sql`alter table users add column two_factor_required boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column two_factor_required`.execute(db);
  await db.schema.dropTable('two_factor_recovery_codes').execute();
  await db.schema.dropTable('two_factor').execute();
}

import { type Kysely, sql } from 'kysely';

// Memberships for buyers (docs/decisions/28-a-persons-day.md). A plan has a public slug: its hosted page
// is /m/{slug}. Plans made before get one from their name and a few characters of their id.
// `member_codes` holds the one-time codes that prove a buyer holds a member's address for a
// members-only tier: only a hash of each code, when it lapses, how many wrong tries it has
// taken, and when it was used.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('slug', 'text').execute();
  await sql`
    update plans set slug = coalesce(nullif(trim(both '-' from left(regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g'), 60)), ''), 'plan')
      || '-' || left(lower(regexp_replace(id, '[^A-Za-z0-9]', '', 'g')), 40)
    where slug is null`.execute(db);
  await db.schema
    .alterTable('plans')
    .alterColumn('slug', (c) => c.setNotNull())
    .execute();
  await sql`create unique index plans_slug on plans (slug)`.execute(db);

  await db.schema
    .createTable('member_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index member_codes_address on member_codes (account_id, mode, email, created_at)`.execute(
    db,
  );
  await sql`create index member_codes_expiry on member_codes (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('member_codes').execute();
  await sql`drop index if exists plans_slug`.execute(db);
  await db.schema.alterTable('plans').dropColumn('slug').execute();
}

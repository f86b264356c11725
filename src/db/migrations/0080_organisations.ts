import { type Kysely, sql } from 'kysely';

// Organisations with members (docs/decisions/25-organiser-teams-and-roles.md). An account is an
// organisation: its id stays the id every event, key, plan and ledger entry already names, so
// nothing else moves. Each existing account becomes an organisation whose one member is its own
// user, as owner. A person in several organisations picks one per dashboard session
// (`dashboard_sessions.organisation_id`, null: their first); invitations are kept as hashes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisation_members')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role in ('owner', 'admin', 'finance', 'event_manager', 'door', 'viewer')`),
    )
    // Null: every event of the organisation; otherwise the listed ones (event_manager, door).
    .addColumn('event_ids', sql`text[]`)
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('organisation_members_pkey', ['organisation_id', 'user_id'])
    .execute();
  await sql`create index organisation_members_by_user on organisation_members (user_id, created_at)`.execute(
    db,
  );
  await sql`insert into organisation_members (organisation_id, user_id, role, event_ids, created_at)
    select id, id, 'owner', null, created_at from users`.execute(db);

  await db.schema
    .createTable('organisation_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('event_ids', sql`text[]`)
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`create index organisation_invitations_by_org on organisation_invitations (organisation_id, created_at)`.execute(
    db,
  );

  await sql`alter table dashboard_sessions add column organisation_id text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_sessions drop column organisation_id`.execute(db);
  await db.schema.dropTable('organisation_invitations').execute();
  await db.schema.dropTable('organisation_members').execute();
}
